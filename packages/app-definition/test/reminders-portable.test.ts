import { createId } from '@pipit/protocol';
import { describe, expect, it } from 'vitest';
import {
  addReminder,
  type AppDefinition,
  createApp,
  exportDefinition,
  parseImport,
  placeInDefinition,
  type PortableApp,
  readDefinition,
  readPipitFile,
  writePipitFile,
} from '../src/index';
import { idFactory, newDoc } from './support';

function withReminders(): AppDefinition {
  const doc = newDoc();
  const newId = idFactory();
  createApp(doc, newId, { title: 'Habits' });
  addReminder(doc, newId, {
    title: 'Log your habits',
    body: 'Did you log today’s habits?',
    schedule: { kind: 'weekly', days: [1, 2, 3, 4, 5, 6, 7], time: '20:00' },
  });
  addReminder(doc, newId, {
    title: 'Weekly review',
    schedule: { kind: 'weekly', days: [7], time: '18:00' },
  });
  return readDefinition(doc) as AppDefinition;
}

function portable(definition: AppDefinition, older: unknown = definition): PortableApp {
  return {
    id: createId(),
    title: 'Habits',
    definition,
    versions: [{ number: 1, publishedAt: 1_700_000_000_000, definition: older as AppDefinition }],
    checkpoints: [],
    images: [],
    data: null,
  };
}

describe('reminders in a file', () => {
  it('carry through a .pipit file: the definition and its versions', () => {
    const definition = withReminders();
    const app = portable(definition);
    const file = readPipitFile(
      writePipitFile({
        origin: 'https://pipit.example.org',
        exportedAt: 0,
        kind: 'app',
        apps: [app],
      }),
    );
    const [entry] = file.manifest.apps;
    expect(file.definition(entry!).reminders).toEqual(definition.reminders);
    expect(file.definition(entry!).reminders.map((r) => r.title)).toEqual([
      'Log your habits',
      'Weekly review',
    ]);
    expect(file.version(entry!, entry!.files.versions[0]!)).toEqual(definition);
  });

  it('read a version published before reminders as having none', () => {
    const definition = withReminders();
    const { reminders: _none, ...older } = { ...definition, reminders: [] };
    const app = portable(definition, older);
    const file = readPipitFile(
      writePipitFile({
        origin: 'https://pipit.example.org',
        exportedAt: 0,
        kind: 'app',
        apps: [app],
      }),
    );
    const [entry] = file.manifest.apps;
    expect(file.version(entry!, entry!.files.versions[0]!).reminders).toEqual([]);
  });

  it('carry through a JSON export and import', () => {
    const definition = withReminders();
    expect(parseImport(exportDefinition(definition))).toEqual(definition);
  });

  it('refuse a file with a broken reminder, naming the reminder', () => {
    const definition = withReminders();
    const broken = JSON.parse(exportDefinition(definition)) as {
      definition: { reminders: Array<{ schedule: { time: string } }> };
    };
    broken.definition.reminders[0]!.schedule.time = '8pm';
    expect(() => parseImport(JSON.stringify(broken))).toThrow(
      'This app can’t be imported. The reminder “Log your habits”, its schedule time: Pick a time between 00:00 and 23:59, written like 07:30.',
    );
    expect(placeInDefinition(definition, ['reminders', 1, 'title'])).toBe(
      'the reminder “Weekly review”, its title',
    );
  });
});

import { blankDefinition, type ReadDefinition } from '@pipit/app-definition';
import { describe, expect, it } from 'vitest';
import { resolveProblems } from './publish-problems';

/** A blank app with two reminders, the second counting from a field since deleted. */
function appWithReminders(): ReadDefinition {
  const definition = blankDefinition('Party');
  return {
    ...definition,
    reminders: [
      {
        id: 'r-daily',
        title: 'Check the list',
        body: '',
        schedule: { kind: 'weekly', days: [1, 2, 3, 4, 5, 6, 7], time: '20:00' },
      },
      {
        id: 'r-eve',
        title: 'Party tomorrow',
        body: '',
        schedule: {
          kind: 'recordDay',
          collectionId: 'events',
          fieldId: 'gone',
          days: -1,
          time: '09:00',
        },
      },
    ],
  } as ReadDefinition;
}

const message = 'Reminder “Party tomorrow” is about a collection that no longer exists.';

describe('a publish problem about a reminder', () => {
  it('names the reminder and opens it, by the id the server names', () => {
    // The server's index may differ from this editor's (another device moved it): the id wins.
    const [problem] = resolveProblems(appWithReminders(), [
      {
        path: 'reminders.0.schedule.collectionId',
        message,
        entity: { table: 'reminders', id: 'r-eve' },
      },
    ]);
    expect(problem).toEqual({
      message,
      where: 'Reminder “Party tomorrow”',
      target: { kind: 'reminder', reminderId: 'r-eve' },
    });
  });

  it('finds the reminder by its path when the server names no entity', () => {
    const [problem] = resolveProblems(appWithReminders(), [
      { path: 'reminders.1.schedule.fieldId', message, entity: null },
    ]);
    expect(problem?.where).toBe('Reminder “Party tomorrow”');
    expect(problem?.target).toEqual({ kind: 'reminder', reminderId: 'r-eve' });
  });

  it('opens the Reminders panel for a reminder this editor can’t read', () => {
    const [byEntity, byPath] = resolveProblems(appWithReminders(), [
      { path: 'reminders.5.title', message, entity: { table: 'reminders', id: 'unread' } },
      { path: 'reminders.5.title', message, entity: null },
    ]);
    for (const problem of [byEntity, byPath]) {
      expect(problem?.where).toBe('Reminders');
      expect(problem?.target).toEqual({ kind: 'tab', tab: 'reminders' });
    }
  });

  it('still says “The app” for a problem about no part of it', () => {
    const [problem] = resolveProblems(appWithReminders(), [
      { path: 'schemaVersion', message: 'Too new.', entity: null },
    ]);
    expect(problem).toEqual({ message: 'Too new.', where: 'The app', target: null });
  });
});

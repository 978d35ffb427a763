import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import {
  type Action,
  APP_TEMPLATES,
  type AppDefinition,
  appDefinitionSchema,
  blankDefinition,
  type Collection,
  type Component,
  COMPONENT_TYPES,
  exportDefinition,
  fitsViewField,
  habitTrackerShowcase,
  LIMITS,
  parseImport,
  readDefinition,
  THEME_PRESETS,
  writeDefinition,
  NUMERIC_FIELD_TYPES,
} from '../src/index';

/**
 * Every reference a definition makes, checked against what it defines. The schema only checks
 * shapes; this checks that a list shows fields of its own collection, a detail screen is reached
 * with a record whose fields it shows, a step edits a record the screen actually has, and so on.
 * Returns the problems as readable sentences (empty when all is well).
 */
function referenceProblems(def: AppDefinition): string[] {
  const problems: string[] = [];
  const collections = new Map(def.collections.map((c) => [c.id, c]));
  const screens = new Map(def.screens.map((s) => [s.id, s]));
  const actions = new Map(def.actions.map((a) => [a.id, a]));
  const aiActions = new Map(def.aiActions.map((a) => [a.id, a]));
  const fieldOf = (c: Collection | undefined, id: string | null) =>
    id === null ? undefined : c?.fields.find((f) => f.id === id);
  const collectionOf = (id: string | null) => (id === null ? undefined : collections.get(id));

  // Which collections' records a screen can be opened with: a list's tap passes its record, a
  // navigate step passes the record of the screen (or of the form) that ran it.
  const recordsOn = new Map<string, Set<string>>(def.screens.map((s) => [s.id, new Set()]));
  const runs: Array<{ screenId: string; actionId: string; record: () => Set<string> }> = [];
  for (const s of def.screens) {
    for (const c of s.components) {
      if (c.type === 'button' && c.props.actionId) {
        runs.push({
          screenId: s.id,
          actionId: c.props.actionId,
          record: () => recordsOn.get(s.id)!,
        });
      }
      if (c.type === 'form' && c.props.actionId && c.props.collectionId) {
        const saved = new Set([c.props.collectionId]);
        runs.push({ screenId: s.id, actionId: c.props.actionId, record: () => saved });
      }
    }
  }
  for (let changed = true; changed;) {
    changed = false;
    const add = (screenId: string | null, collectionId: string) => {
      const set = screenId === null ? undefined : recordsOn.get(screenId);
      if (set && !set.has(collectionId)) {
        set.add(collectionId);
        changed = true;
      }
    };
    for (const s of def.screens)
      for (const c of s.components)
        if (c.type === 'list' && c.props.collectionId)
          add(c.props.detailScreenId, c.props.collectionId);
    for (const run of runs)
      for (const st of actions.get(run.actionId)?.steps ?? [])
        if (st.type === 'navigate') for (const id of run.record()) add(st.props.screenId, id);
  }
  /** The one collection whose record a screen shows, or a problem. */
  const recordOf = (screenId: string, what: string): Collection | undefined => {
    const ids = [...(recordsOn.get(screenId) ?? [])];
    if (ids.length !== 1) {
      problems.push(`${what} needs exactly one record collection on its screen, has ${ids.length}`);
      return undefined;
    }
    return collections.get(ids[0]!);
  };
  const needField = (c: Collection | undefined, id: string | null, what: string, type?: string) => {
    const f = fieldOf(c, id);
    if (!f) problems.push(`${what}: field ${id} is not in ${c?.name ?? 'its collection'}`);
    else if (type === 'number' ? !NUMERIC_FIELD_TYPES.includes(f.type) : type && f.type !== type)
      problems.push(`${what}: field ${f.name} is ${f.type}, not ${type}`);
  };
  const needCollection = (id: string | null, what: string) => {
    const c = collectionOf(id);
    if (!c) problems.push(`${what}: collection ${id} does not exist`);
    return c;
  };
  const recordRefs = (value: string, c: Collection | undefined, what: string) => {
    for (const [, root, key] of value.matchAll(/\{\{\s*(\w+)\.([\w-]+)\s*\}\}/g)) {
      if (root === 'record') needField(c, key!, `${what} {{record.…}}`);
      else if (root !== 'user' && root !== 'input') problems.push(`${what}: unknown {{${root}.…}}`);
    }
  };

  const checkComponent = (screenId: string, c: Component) => {
    const what = `${screens.get(screenId)!.title} › ${c.type}`;
    switch (c.type) {
      case 'list': {
        const col = needCollection(c.props.collectionId, what);
        needField(col, c.props.titleFieldId, what);
        if (c.props.subtitleFieldId) needField(col, c.props.subtitleFieldId, what);
        if (c.props.filter) {
          needField(col, c.props.filter.fieldId, `${what} filter`);
          const f = fieldOf(col, c.props.filter.fieldId);
          if (
            f?.type === 'select' &&
            c.props.filter.op === 'equals' &&
            !f.options.includes(c.props.filter.value)
          )
            problems.push(`${what}: filter value "${c.props.filter.value}" is not an option`);
        }
        if (c.props.sort) needField(col, c.props.sort.fieldId, `${what} sort`);
        if (c.props.detailScreenId && !screens.has(c.props.detailScreenId))
          problems.push(`${what}: detail screen does not exist`);
        if (!c.props.emptyText.trim()) problems.push(`${what}: no empty text`);
        for (const id of c.props.columnFieldIds) needField(col, id, `${what} column`);
        if (c.props.view === 'board')
          needField(col, c.props.groupFieldId, `${what} board`, 'select');
        if (c.props.view === 'calendar') {
          needField(col, c.props.dateFieldId, `${what} calendar`, 'date');
          const add = screens.get(c.props.addScreenId ?? '');
          const adds = add?.components.some(
            (a) =>
              a.type === 'form' && a.props.mode === 'create' && a.props.collectionId === col?.id,
          );
          if (c.props.addScreenId && !adds) problems.push(`${what}: add screen has no create form`);
        }
        if (c.props.view === 'gallery') {
          needField(col, c.props.imageFieldId, `${what} gallery`);
          const f = fieldOf(col, c.props.imageFieldId);
          if (f && !fitsViewField('imageFieldId', f.type))
            problems.push(`${what} gallery: field ${f.name} is ${f.type}, not a picture`);
        }
        break;
      }
      case 'form': {
        const col = needCollection(c.props.collectionId, what);
        if (c.props.fieldIds.length === 0) problems.push(`${what}: no fields`);
        for (const id of c.props.fieldIds) needField(col, id, what);
        for (const f of col?.fields ?? [])
          if (
            c.props.mode === 'create' &&
            f.required &&
            f.default === null &&
            !c.props.fieldIds.includes(f.id)
          )
            problems.push(`${what}: required field ${f.name} is not on the form`);
        if (c.props.mode === 'edit' && recordOf(screenId, what) !== col)
          problems.push(`${what}: edits a record the screen does not have`);
        if (c.props.actionId && !actions.has(c.props.actionId))
          problems.push(`${what}: no such action`);
        break;
      }
      case 'detail': {
        const col = recordOf(screenId, what);
        if (c.props.fieldIds.length === 0) problems.push(`${what}: no fields`);
        for (const id of c.props.fieldIds) needField(col, id, what);
        break;
      }
      case 'checklist': {
        const col = needCollection(c.props.collectionId, what);
        needField(col, c.props.titleFieldId, what);
        needField(col, c.props.checkFieldId, what, 'boolean');
        break;
      }
      case 'stat': {
        const col = needCollection(c.props.collectionId, what);
        if (c.props.aggregate !== 'count') needField(col, c.props.fieldId, what, 'number');
        break;
      }
      case 'chart': {
        const col = needCollection(c.props.collectionId, what);
        needField(col, c.props.labelFieldId, what);
        if (c.props.aggregate !== 'count') needField(col, c.props.valueFieldId, what, 'number');
        break;
      }
      case 'button':
        if (!c.props.actionId || !actions.has(c.props.actionId))
          problems.push(`${what}: no action`);
        break;
      case 'ai': {
        const ai = c.props.aiActionId ? aiActions.get(c.props.aiActionId) : undefined;
        if (!ai) problems.push(`${what}: no AI action`);
        else recordRefs(ai.prompt, collections.get([...recordsOn.get(screenId)!][0] ?? ''), what);
        break;
      }
      case 'link':
      case 'image':
        if (!(c.type === 'link' ? c.props.url : c.props.src)) problems.push(`${what}: no address`);
        break;
      default:
        break;
    }
  };
  for (const s of def.screens) for (const c of s.components) checkComponent(s.id, c);

  const checkAction = (action: Action, screenId: string, record: Set<string>) => {
    const what = `${screens.get(screenId)!.title} › ${action.name}`;
    const current = () => (record.size === 1 ? collections.get([...record][0]!) : undefined);
    for (const st of action.steps) {
      if (st.type === 'navigate' && (!st.props.screenId || !screens.has(st.props.screenId)))
        problems.push(`${what}: navigates to a missing screen`);
      if (st.type === 'createRecord') {
        const col = needCollection(st.props.collectionId, what);
        for (const [id, value] of Object.entries(st.props.values)) {
          needField(col, id, what);
          recordRefs(value, current(), what);
        }
      }
      if (['updateRecord', 'deleteRecord', 'setField'].includes(st.type) && record.size !== 1)
        problems.push(`${what}: ${st.type} without exactly one current record`);
      if (st.type === 'updateRecord')
        for (const id of Object.keys(st.props.values)) needField(current(), id, what);
      if (st.type === 'setField') needField(current(), st.props.fieldId, what);
    }
  };
  for (const run of runs) checkAction(actions.get(run.actionId)!, run.screenId, run.record());

  const used = new Set(runs.map((r) => r.actionId));
  for (const a of def.actions) if (!used.has(a.id)) problems.push(`action ${a.name} is never run`);
  const first = def.screens[0];
  if (first && recordsOn.get(first.id)!.size > 0) problems.push('the first screen needs a record');
  for (const c of def.collections) {
    for (const f of c.fields) {
      if (f.type === 'select' && f.options.length < 2)
        problems.push(`${c.name}.${f.name}: too few options`);
      if (f.type === 'select' && f.default !== null && !f.options.includes(f.default as string))
        problems.push(`${c.name}.${f.name}: default is not an option`);
    }
    for (const r of c.records) {
      for (const f of c.fields) {
        const v = r.values[f.id];
        if (f.required && (v === undefined || v === null || v === ''))
          problems.push(`${c.name} record lacks ${f.name}`);
        if (f.type === 'select' && typeof v === 'string' && !f.options.includes(v))
          problems.push(`${c.name} record: "${v}" is not an option of ${f.name}`);
      }
    }
  }
  return problems;
}

function entityIds(def: AppDefinition): string[] {
  return [
    ...def.screens.flatMap((s) => [s.id, ...s.components.map((c) => c.id)]),
    ...def.collections.flatMap((c) => [
      c.id,
      ...c.fields.map((f) => f.id),
      ...c.records.map((r) => r.id),
    ]),
    ...def.actions.flatMap((a) => [a.id, ...a.steps.map((st) => st.id)]),
    ...def.aiActions.map((a) => a.id),
    ...def.reminders.map((r) => r.id),
  ];
}

const cases = [
  ...APP_TEMPLATES.map((t) => [t.name, () => t.build()] as const),
  ['the blank app', () => blankDefinition('Plant care')] as const,
];

describe('APP_TEMPLATES', () => {
  it('offers at least six templates with unique ids and names', () => {
    expect(APP_TEMPLATES.length).toBeGreaterThanOrEqual(6);
    expect(new Set(APP_TEMPLATES.map((t) => t.id)).size).toBe(APP_TEMPLATES.length);
    expect(new Set(APP_TEMPLATES.map((t) => t.name)).size).toBe(APP_TEMPLATES.length);
    for (const t of APP_TEMPLATES) {
      expect(t.id).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(t.summary.length).toBeGreaterThan(20);
      expect(t.build().meta.icon).toEqual(t.icon);
      expect(t.build().meta.title).toBe(t.name);
    }
  });

  it('uses at least 13 component types and several theme presets across the templates', () => {
    const defs = APP_TEMPLATES.map((t) => t.build());
    const types = new Set(
      defs.flatMap((d) => d.screens.flatMap((s) => s.components.map((c) => c.type))),
    );
    expect(types.size).toBeGreaterThanOrEqual(13);
    expect([...types].every((t) => COMPONENT_TYPES.includes(t))).toBe(true);
    expect(new Set(defs.map((d) => d.theme.preset)).size).toBeGreaterThanOrEqual(6);
    expect(defs.every((d) => THEME_PRESETS.includes(d.theme.preset))).toBe(true);
  });
});

describe.each(cases)('%s', (_name, build) => {
  it('passes the strict schema unchanged and keeps within LIMITS', () => {
    const def = build();
    expect(appDefinitionSchema.parse(def)).toEqual(def);
    expect(def.screens.length).toBeLessThanOrEqual(LIMITS.screens);
    expect(def.collections.length).toBeLessThanOrEqual(LIMITS.collections);
    for (const s of def.screens)
      expect(s.components.length).toBeLessThanOrEqual(LIMITS.componentsPerScreen);
    for (const c of def.collections)
      expect(c.fields.length).toBeLessThanOrEqual(LIMITS.fieldsPerCollection);
    const records = def.collections.reduce((n, c) => n + c.records.length, 0);
    expect(records).toBeLessThanOrEqual(LIMITS.creatorRecords);
    const doc = new Y.Doc();
    writeDefinition(doc, def);
    expect(Y.encodeStateAsUpdate(doc).byteLength).toBeLessThan(LIMITS.documentBytes);
    expect(def.meta.tags.length).toBeLessThanOrEqual(LIMITS.tags);
    // Ids (26 random base32 letters) can spell anything, so they are left out of the copy check.
    const copy = JSON.stringify(def).replace(/[a-z2-7]{26}/g, '');
    expect(copy).not.toMatch(/lorem|ipsum|TODO|placeholder/i);
  });

  it('round-trips through a Yjs document and a JSON export', () => {
    const def = build();
    const doc = new Y.Doc();
    writeDefinition(doc, def);
    const read = readDefinition(doc);
    const components = read.screens.flatMap((s) => s.components);
    expect(components.filter((c) => c.type === 'invalid')).toEqual([]);
    expect(read.screens.map((s) => [s.title, s.components.length])).toEqual(
      def.screens.map((s) => [s.title, s.components.length]),
    );
    expect(read.collections.map((c) => [c.name, c.fields.length, c.records.length])).toEqual(
      def.collections.map((c) => [c.name, c.fields.length, c.records.length]),
    );
    expect(read).toEqual(def);
    expect(parseImport(exportDefinition(def))).toEqual(def);
  });

  it('references only screens, collections, fields and actions that exist', () => {
    expect(referenceProblems(build())).toEqual([]);
  });

  it('gets fresh, unique entity ids on every build', () => {
    const first = entityIds(build());
    const second = entityIds(build());
    expect(new Set(first).size).toBe(first.length);
    expect(first.filter((id) => second.includes(id))).toEqual([]);
  });
});

describe('the habit tracker’s reminder', () => {
  it('reminds every day at 20:00 to log the day’s habits, in the template and the showcase', () => {
    const template = APP_TEMPLATES.find((t) => t.id === 'habit-tracker')!.build();
    const expected = {
      title: 'Log your habits',
      body: 'Did you log today’s habits?',
      schedule: { kind: 'weekly', days: [1, 2, 3, 4, 5, 6, 7], time: '20:00' },
    };
    expect(template.reminders).toEqual([{ id: expect.any(String) as string, ...expected }]);
    expect(habitTrackerShowcase().reminders).toEqual([{ id: 'log-reminder', ...expected }]);
  });
});

describe('the reference checker', () => {
  const habits = () => APP_TEMPLATES.find((t) => t.id === 'habit-tracker')!.build();

  it('finds a navigate step to a screen that does not exist', () => {
    const def = habits();
    const step = def.actions.flatMap((a) => a.steps).find((s) => s.type === 'navigate')!;
    if (step.type === 'navigate') step.props.screenId = 'gone';
    expect(referenceProblems(def).join('\n')).toMatch(/navigates to a missing screen/);
  });

  it('finds a list field from another collection and a detail screen nothing opens', () => {
    const def = habits();
    const lists = def.screens.flatMap((s) => s.components).filter((c) => c.type === 'list');
    const list = lists[0]!;
    const other = def.collections[1]!.fields[0]!.id;
    if (list.type === 'list') list.props.titleFieldId = other;
    // Every list of habits stops opening the habit's screen.
    for (const each of lists)
      if (each.type === 'list' && list.type === 'list')
        if (each.props.collectionId === list.props.collectionId) each.props.detailScreenId = null;
    const problems = referenceProblems(def).join('\n');
    expect(problems).toMatch(/field .* is not in Habits/);
    expect(problems).toMatch(/detail needs exactly one record collection/);
  });
});

describe('blankDefinition', () => {
  it('is one Home screen with a heading of the title and the default theme', () => {
    const def = blankDefinition('  Plant care ');
    expect(def.meta.title).toBe('Plant care');
    expect(def.screens).toHaveLength(1);
    expect(def.screens[0]!.title).toBe('Home');
    expect(def.screens[0]!.components).toMatchObject([
      { type: 'heading', props: { text: 'Plant care', level: 1 } },
    ]);
    expect(def.theme).toEqual(appDefinitionSchema.shape.theme.parse({}));
    expect(def.collections).toEqual([]);
  });

  it('names an untitled app and cuts a long title to the limit', () => {
    expect(blankDefinition().meta.title).toBe('My app');
    expect(blankDefinition('   ').meta.title).toBe('My app');
    const long = blankDefinition('x'.repeat(100));
    expect(long.meta.title).toHaveLength(LIMITS.titleLength);
    expect(appDefinitionSchema.safeParse(long).success).toBe(true);
  });
});

describe('the /demo1 showcase (the habit tracker with fixed ids)', () => {
  it('is valid, consistent, and the same on every build', () => {
    const built = habitTrackerShowcase();
    expect(appDefinitionSchema.safeParse(built).success).toBe(true);
    expect(referenceProblems(built)).toEqual([]);
    expect(habitTrackerShowcase()).toEqual(built);
  });

  it('keeps the ids a visitor’s data on their device refers to', () => {
    const built = habitTrackerShowcase();
    expect(built.collections.map((c) => [c.id, c.fields.map((f) => f.id)])).toEqual([
      [
        'habits',
        ['habit-name', 'habit-why', 'habit-time-of-day', 'habit-done-today', 'habit-streak'],
      ],
      ['check-ins', ['check-in-habit', 'check-in-date', 'check-in-feeling', 'check-in-note']],
      ['ideas', ['idea-title', 'idea-why']],
    ]);
    expect(built.collections[2]!.records.map((r) => r.id)).toEqual([
      'idea-water',
      'idea-walk',
      'idea-read',
      'idea-gratitude',
      'idea-stretch',
    ]);
    expect(built.screens.map((s) => s.id)).toEqual([
      'today',
      'habits',
      'habit',
      'add-habit',
      'edit-habit',
      'check-in',
      'progress',
      'ideas',
      'idea',
    ]);
    expect(built.screens[0]!.components.map((c) => c.id)).toContain('today-checklist');
  });
});

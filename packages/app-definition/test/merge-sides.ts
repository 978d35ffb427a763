import fc from 'fast-check';
import { expect } from 'vitest';
import * as Y from 'yjs';
import {
  type AppDefinition,
  appDefinitionSchema,
  chooseTheirs,
  DefinitionError,
  LIMITS,
  type MergeResult,
  mergeDefinitions,
  type ReadDefinition,
  readDefinition,
  type Weekday,
  writeDefinition,
} from '../src/index';

/*
 * What the merge's property tests share (merge.property.test.ts, parts.property.test.ts): a random
 * valid base, random edits made to it on each side independently, and what must hold of every
 * merge. The checks below read definitions
 * with their own small flattening, not the one the merge uses, so a bug there cannot hide itself.
 * A failure prints the seed and the shrunk counter-example; replay it with
 * `{ seed, path, endOnFailure: true }`.
 */

export const RUNS = { seed: 20_240_611, numRuns: 200 };
/** The identities below are simpler and cheaper to break; half as many runs keep the file fast. */
export const IDENTITY_RUNS = { ...RUNS, numRuns: 100 };

// --- Arbitraries ------------------------------------------------------------------------------

const WORDS = ['Alpha', 'Beta', 'Gamma'] as const;
export const word = fc.constantFrom(...WORDS);
const COMPONENT_KINDS = [
  'heading',
  'text',
  'button',
  'list',
  'detail',
  'counter',
  'divider',
] as const;
const FIELD_KINDS = ['text', 'number', 'boolean', 'select'] as const;
const STEP_KINDS = ['navigate', 'toast', 'createRecord', 'back'] as const;

const baseSpec = fc.record({
  title: word,
  screens: fc.array(
    fc.array(fc.record({ type: fc.constantFrom(...COMPONENT_KINDS), text: word, ref: fc.nat(5) }), {
      maxLength: 4,
    }),
    { minLength: 1, maxLength: 3 },
  ),
  collections: fc.array(
    fc.record({
      fields: fc.array(fc.constantFrom(...FIELD_KINDS), { minLength: 1, maxLength: 3 }),
      records: fc.array(word, { maxLength: 3 }),
    }),
    { maxLength: 2 },
  ),
  actions: fc.array(fc.array(fc.constantFrom(...STEP_KINDS), { maxLength: 3 }), { maxLength: 2 }),
  ai: fc.boolean(),
});
type BaseSpec = typeof baseSpec extends fc.Arbitrary<infer T> ? T : never;

const EDITS = [
  'meta',
  'tags',
  'theme',
  'colour',
  'addScreen',
  'removeScreen',
  'moveScreen',
  'renameScreen',
  'addComponent',
  'removeComponent',
  'moveComponent',
  'setText',
  'setOther',
  'setRef',
  'addCollection',
  'removeCollection',
  'renameCollection',
  'addField',
  'removeField',
  'renameField',
  'requireField',
  'moveField',
  'addRecord',
  'removeRecord',
  'setValue',
  'moveRecord',
  'addAction',
  'removeAction',
  'renameAction',
  'addStep',
  'removeStep',
  'setStep',
  'setAi',
] as const;
/**
 * Kept apart from EDITS (and the reminders apart from baseSpec) so the regression below, a
 * recorded path through the arbitraries without them, still replays.
 */
const REMINDER_EDITS = [
  'addReminder',
  'removeReminder',
  'moveReminder',
  'setReminderTitle',
  'setReminderTime',
  'setReminderKind',
] as const;
/** One edit: what, and numbers and a word that pick its targets and values on any definition. */
export const editArb = fc.record({
  kind: fc.constantFrom(...EDITS),
  a: fc.nat(9),
  b: fc.nat(9),
  w: word,
});
export const anyEditArb = fc.record({
  kind: fc.constantFrom(...EDITS, ...REMINDER_EDITS),
  a: fc.nat(9),
  b: fc.nat(9),
  w: word,
});
export type Edit = typeof anyEditArb extends fc.Arbitrary<infer T> ? T : never;
export const edits = fc.array(editArb, { maxLength: 8 });
export const anyEdits = fc.array(anyEditArb, { maxLength: 8 });

type Json = Record<string, unknown>;
type Item = { id: string } & Json;

const pick = <T>(items: readonly T[], n: number): T | undefined =>
  items.length > 0 ? items[n % items.length] : undefined;

function idMaker(prefix: string) {
  let n = 0;
  return () => `${prefix}${++n}`;
}

/** What a live document gives back: through writeDefinition and the reader. */
function normalized(draft: unknown): AppDefinition {
  const doc = new Y.Doc();
  writeDefinition(doc, appDefinitionSchema.parse(draft));
  return appDefinitionSchema.parse(readDefinition(doc));
}

function buildBase(spec: BaseSpec & { reminders?: number }): AppDefinition {
  const newId = idMaker('b');
  const collections = spec.collections.map((c) => {
    const fields = c.fields.map((type) => ({
      id: newId(),
      name: `Field ${type}`,
      type,
      options: type === 'select' ? ['one', 'two'] : [],
    }));
    const records = c.records.map((text) => ({ id: newId(), values: { [fields[0]!.id]: text } }));
    return { id: newId(), name: 'Collection', fields, records };
  });
  const screens = spec.screens.map((_, i) => ({
    id: newId(),
    title: `Screen ${i}`,
    components: [],
  }));
  const actions = spec.actions.map((_, i) => ({ id: newId(), name: `Action ${i}`, steps: [] }));
  const draft = {
    schemaVersion: 1,
    meta: { title: spec.title },
    theme: {},
    screens,
    collections,
    actions,
    aiActions: spec.ai ? [{ id: newId(), name: 'Helper' }] : [],
    reminders: Array.from({ length: spec.reminders ?? 0 }, (_, i) => ({
      id: newId(),
      title: `Reminder ${i}`,
      schedule: { kind: 'weekly', days: [1], time: '20:00' },
    })),
  } as unknown as AppDefinition;
  spec.screens.forEach((components, i) => {
    for (const c of components) {
      const made = { id: newId(), type: c.type, props: {} } as Item;
      (draft.screens[i]!.components as unknown as Item[]).push(made);
      setRef(draft, made, c.ref);
      if (c.type !== 'divider') setText(made, c.text);
    }
  });
  spec.actions.forEach((steps, i) => {
    for (const type of steps) {
      const step = { id: newId(), type, props: {} } as Item;
      (draft.actions[i]!.steps as unknown as Item[]).push(step);
      setStepRef(draft, step, i);
    }
  });
  return normalized(draft);
}

export const arbitraryBase = baseSpec.map(buildBase);
export const baseWithReminders = fc
  .record({ spec: baseSpec, reminders: fc.nat(2) })
  .map(({ spec, reminders }) => buildBase({ ...spec, reminders }));

// --- Edits on a draft ---------------------------------------------------------------------------

const components = (d: AppDefinition) =>
  d.screens.flatMap((s) => s.components.map((c) => ({ screen: s, c: c as unknown as Item })));
const fields = (d: AppDefinition) =>
  d.collections.flatMap((c) => c.fields.map((f) => ({ collection: c, f })));
const records = (d: AppDefinition) =>
  d.collections.flatMap((c) => c.records.map((r) => ({ collection: c, r })));
const steps = (d: AppDefinition) =>
  d.actions.flatMap((a) => a.steps.map((s) => ({ action: a, s: s as unknown as Item })));

function move<T>(items: T[], from: number, to: number) {
  if (items.length === 0) return;
  const [item] = items.splice(from % items.length, 1);
  items.splice(to % (items.length + 1), 0, item!);
}

function props(item: Item): Json {
  return item.props as Json;
}

function setText(c: Item, text: string) {
  const key = { heading: 'text', text: 'markdown', button: 'label', list: 'emptyText' }[
    c.type as string
  ];
  props(c)[key ?? 'label'] = text;
}

function setRef(d: AppDefinition, c: Item, n: number) {
  const collection = pick(d.collections, n);
  const action = pick(d.actions, n);
  if (c.type === 'list') {
    props(c).collectionId = collection?.id ?? null;
    props(c).titleFieldId = pick(collection?.fields ?? [], n)?.id ?? null;
  } else if (c.type === 'button') props(c).actionId = action?.id ?? null;
  else if (c.type === 'detail') {
    props(c).fieldIds = (collection?.fields ?? []).slice(0, 1 + (n % 2)).map((f) => f.id);
  }
}

function setStepRef(d: AppDefinition, step: Item, n: number) {
  if (step.type === 'navigate') props(step).screenId = pick(d.screens, n)?.id ?? null;
  if (step.type === 'createRecord') props(step).collectionId = pick(d.collections, n)?.id ?? null;
}

const THEME_CHOICES: Array<[string, string[]]> = [
  ['preset', ['meadow', 'ember', 'slate']],
  ['radius', ['none', 'large']],
  ['font', ['serif', 'mono']],
  ['mode', ['light', 'dark']],
];

function editMeta(d: AppDefinition, e: Edit): boolean {
  if (e.kind === 'meta') (d.meta as Json)[e.a % 2 ? 'title' : 'description'] = e.w;
  else if (e.kind === 'tags') d.meta.tags = e.a % 2 ? [e.w.toLowerCase()] : [];
  else if (e.kind === 'theme') {
    const [key, values] = pick(THEME_CHOICES, e.a)!;
    (d.theme as Json)[key] = pick(values, e.b);
  } else if (e.kind === 'colour') {
    const token = e.a % 2 ? 'primary' : 'accent';
    const colour = pick([undefined, '#111111', '#222222'], e.b);
    if (colour) d.theme.custom[token] = colour;
    else delete d.theme.custom[token];
  } else return false;
  return true;
}

function editScreens(d: AppDefinition, e: Edit, newId: () => string): boolean {
  const screen = pick(d.screens, e.a);
  const found = pick(components(d), e.a);
  if (e.kind === 'addScreen') {
    d.screens.splice(e.a % (d.screens.length + 1), 0, {
      id: newId(),
      title: e.w,
      icon: '📄',
      components: [],
    });
  } else if (e.kind === 'removeScreen' && d.screens.length > 1)
    d.screens.splice(e.a % d.screens.length, 1);
  else if (e.kind === 'moveScreen') move(d.screens, e.a, e.b);
  else if (e.kind === 'renameScreen' && screen) screen.title = e.w;
  else if (e.kind === 'addComponent' && screen) {
    const made = { id: newId(), type: pick(COMPONENT_KINDS, e.b)!, props: {} } as Item;
    setRef(d, made, e.b);
    if (made.type !== 'divider') setText(made, e.w);
    (screen.components as unknown as Item[]).splice(e.b % (screen.components.length + 1), 0, made);
  } else if (e.kind === 'removeComponent' && found) {
    found.screen.components.splice(found.screen.components.indexOf(found.c as never), 1);
  } else if (e.kind === 'moveComponent' && found) {
    const to = pick(d.screens, e.b)!;
    found.screen.components.splice(found.screen.components.indexOf(found.c as never), 1);
    (to.components as unknown as Item[]).splice(e.b % (to.components.length + 1), 0, found.c);
  } else if (e.kind === 'setText' && found && found.c.type !== 'divider') setText(found.c, e.w);
  else if (e.kind === 'setOther' && found) {
    if (found.c.type === 'heading') props(found.c).level = 1 + (e.b % 3);
    if (found.c.type === 'counter') props(found.c).step = 1 + (e.b % 3);
    if (found.c.type === 'button') props(found.c).style = e.b % 2 ? 'primary' : 'secondary';
  } else if (e.kind === 'setRef' && found) setRef(d, found.c, e.b);
  else return false;
  return true;
}

function editCollections(d: AppDefinition, e: Edit, newId: () => string): boolean {
  const collection = pick(d.collections, e.a);
  const field = pick(fields(d), e.a);
  const record = pick(records(d), e.a);
  if (e.kind === 'addCollection') {
    d.collections.push({
      id: newId(),
      name: e.w,
      fields: [
        { id: newId(), name: 'Name', type: 'text', required: false, default: null, options: [] },
      ],
      records: [],
      sharing: 'private',
      recordRule: 'anyone',
    });
  } else if (e.kind === 'removeCollection' && collection) {
    d.collections.splice(d.collections.indexOf(collection), 1);
  } else if (e.kind === 'renameCollection' && collection) collection.name = e.w;
  else if (e.kind === 'addField' && collection) {
    const type = pick(FIELD_KINDS, e.b)!;
    collection.fields.push({
      id: newId(),
      name: e.w,
      type,
      required: false,
      default: null,
      options: type === 'select' ? ['one'] : [],
    });
  } else if (e.kind === 'removeField' && field) {
    field.collection.fields.splice(field.collection.fields.indexOf(field.f), 1);
  } else if (e.kind === 'renameField' && field) field.f.name = e.w;
  else if (e.kind === 'requireField' && field) field.f.required = e.b % 2 === 1;
  else if (e.kind === 'moveField' && collection) move(collection.fields, e.a, e.b);
  else if (e.kind === 'addRecord' && collection) {
    const first = collection.fields[0];
    collection.records.splice(e.b % (collection.records.length + 1), 0, {
      id: newId(),
      values: first ? { [first.id]: e.w } : {},
    });
  } else if (e.kind === 'removeRecord' && record) {
    record.collection.records.splice(record.collection.records.indexOf(record.r), 1);
  } else if (e.kind === 'setValue' && record) {
    const target = pick(record.collection.fields, e.b);
    if (target) record.r.values[target.id] = target.type === 'number' ? e.b : e.w;
  } else if (e.kind === 'moveRecord' && collection) move(collection.records, e.a, e.b);
  else return false;
  return true;
}

function editActions(d: AppDefinition, e: Edit, newId: () => string): boolean {
  const action = pick(d.actions, e.a);
  const found = pick(steps(d), e.a);
  if (e.kind === 'addAction') d.actions.push({ id: newId(), name: e.w, steps: [] });
  else if (e.kind === 'removeAction' && action) d.actions.splice(d.actions.indexOf(action), 1);
  else if (e.kind === 'renameAction' && action) action.name = e.w;
  else if (e.kind === 'addStep' && action) {
    const step = { id: newId(), type: pick(STEP_KINDS, e.b)!, props: {} } as Item;
    setStepRef(d, step, e.b);
    (action.steps as unknown as Item[]).splice(e.b % (action.steps.length + 1), 0, step);
  } else if (e.kind === 'removeStep' && found) {
    found.action.steps.splice(found.action.steps.indexOf(found.s as never), 1);
  } else if (e.kind === 'setStep' && found) {
    if (found.s.type === 'toast') props(found.s).message = e.w;
    else setStepRef(d, found.s, e.b);
  } else if (e.kind === 'setAi' && d.aiActions[0]) {
    const ai = d.aiActions[0];
    if (e.b % 2) ai.prompt = e.w;
    else ai.output = { kind: 'record', collectionId: pick(d.collections, e.b)?.id ?? null };
  } else return false;
  return true;
}

/** A time of day from a word, so a shared edit made with two words can differ. */
const timeOf = (w: string) => `1${WORDS.indexOf(w as (typeof WORDS)[number])}:30`;

/** Reminders: added, removed, moved, retitled, their time changed, their kind of schedule swapped. */
function editReminders(d: AppDefinition, e: Edit, newId: () => string): boolean {
  const reminder = pick(d.reminders, e.a);
  const schedule = reminder?.schedule;
  if (e.kind === 'addReminder' && d.reminders.length < LIMITS.reminders) {
    d.reminders.push({
      id: newId(),
      title: e.w,
      body: '',
      schedule: { kind: 'weekly', days: [1 + (e.b % 7)] as Weekday[], time: timeOf(e.w) },
    });
  } else if (e.kind === 'removeReminder' && reminder) {
    d.reminders.splice(d.reminders.indexOf(reminder), 1);
  } else if (e.kind === 'moveReminder') move(d.reminders, e.a, e.b);
  else if (e.kind === 'setReminderTitle' && reminder) reminder.title = e.w;
  else if (e.kind === 'setReminderTime' && schedule && schedule.kind !== 'recordTime') {
    schedule.time = timeOf(e.w);
  } else if (e.kind === 'setReminderKind' && reminder) {
    const found = pick(fields(d), e.b);
    reminder.schedule =
      schedule?.kind === 'weekly' && found
        ? {
            kind: 'recordTime',
            collectionId: found.collection.id,
            fieldId: found.f.id,
            minutes: -10 * (1 + WORDS.indexOf(e.w as (typeof WORDS)[number])),
          }
        : { kind: 'weekly', days: [1 + (e.b % 7)] as Weekday[], time: timeOf(e.w) };
  } else return false;
  return true;
}

/** One side's version: base with its edits, as its live document would read it. */
export function editedSide(base: AppDefinition, list: Edit[], prefix: string): AppDefinition {
  const draft = JSON.parse(JSON.stringify(base)) as AppDefinition;
  const newId = idMaker(prefix);
  for (const e of list) {
    void (
      editMeta(draft, e) ||
      editScreens(draft, e, newId) ||
      editCollections(draft, e, newId) ||
      editActions(draft, e, newId) ||
      editReminders(draft, e, newId)
    );
  }
  return normalized(draft);
}

/** The remix may hold components the reader could not use; the merge leaves them out. */
export function withInvalid(ours: AppDefinition, add: boolean): ReadDefinition {
  if (!add) return ours;
  const read = JSON.parse(JSON.stringify(ours)) as ReadDefinition;
  read.screens[0]!.components.push({
    id: 'holo',
    type: 'invalid',
    originalType: 'hologram',
    problem: 'This kind of component is not known.',
  });
  return read;
}

// --- The checks' own reading of a definition --------------------------------------------------

export type Facts = Map<string, Map<string, unknown>>;

function entries(prefix: string, values: object): Array<[string, unknown]> {
  return Object.entries(values).map(([k, v]) => [`${prefix}${k}`, v]);
}

/** Every entity's properties, by `kind:id` and the merge's property names. */
export function facts(d: ReadDefinition | AppDefinition): Facts {
  const out: Facts = new Map();
  const put = (key: string, list: Array<[string, unknown]>) =>
    out.set(key, new Map(list.filter(([, v]) => v !== undefined)));
  put('app:app', entries('', d.meta));
  const { custom, ...theme } = d.theme;
  put('theme:theme', [...entries('', theme), ...entries('', custom)]);
  for (const s of d.screens) {
    put(`screen:${s.id}`, [
      ['title', s.title],
      ['icon', s.icon],
    ]);
    for (const c of s.components) {
      if (c.type === 'invalid') continue;
      put(`component:${c.id}`, [
        ['type', c.type],
        ['screenId', s.id],
        ...entries('props.', c.props),
      ]);
    }
  }
  for (const c of d.collections) {
    put(`collection:${c.id}`, [['name', c.name]]);
    for (const { id, ...f } of c.fields)
      put(`field:${id}`, [['collectionId', c.id], ...entries('', f)]);
    for (const r of c.records) {
      put(`record:${r.id}`, [['collectionId', c.id], ...entries('values.', r.values)]);
    }
  }
  for (const a of d.actions) {
    put(`action:${a.id}`, [['name', a.name]]);
    for (const s of a.steps) {
      put(`step:${s.id}`, [['type', s.type], ['actionId', a.id], ...entries('props.', s.props)]);
    }
  }
  for (const { id, ...ai } of d.aiActions) put(`aiAction:${id}`, entries('', ai));
  for (const { id, schedule, ...r } of d.reminders) {
    put(`reminder:${id}`, [...entries('', r), ...entries('schedule.', schedule)]);
  }
  return out;
}

export const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const PARENTS: Record<string, string> = {
  screenId: 'screen',
  collectionId: 'collection',
  actionId: 'action',
};

const PARENT_PATH: Record<string, string> = {
  component: 'screenId',
  field: 'collectionId',
  record: 'collectionId',
  step: 'actionId',
};

function parentKey(f: Facts, key: string): string | null {
  const path = PARENT_PATH[key.slice(0, key.indexOf(':'))];
  const id = path ? f.get(key)?.get(path) : undefined;
  return typeof id === 'string' ? `${PARENTS[path!]}:${id}` : null;
}

/** The entities a property points at (enough for what the arbitraries make). */
function referents(key: string, path: string, value: unknown): string[] {
  if (path.startsWith('values.') && key.startsWith('record:')) return [`field:${path.slice(7)}`];
  if (path === 'props.collectionId' || path === 'output') {
    const id = path === 'output' ? (value as { collectionId?: unknown }).collectionId : value;
    return typeof id === 'string' ? [`collection:${id}`] : [];
  }
  if (path === 'props.titleFieldId' && typeof value === 'string') return [`field:${value}`];
  if (path === 'schedule.collectionId' && typeof value === 'string') return [`collection:${value}`];
  if (path === 'schedule.fieldId' && typeof value === 'string') return [`field:${value}`];
  if (path === 'props.fieldIds') return (value as string[]).map((id) => `field:${id}`);
  if (path === 'props.actionId' && typeof value === 'string') return [`action:${value}`];
  if (path === 'props.screenId' && typeof value === 'string') return [`screen:${value}`];
  return [];
}

/** A property's value; a reminder's whole schedule put back together from its parts. */
function valueAt(f: Map<string, unknown> | undefined, path: string): unknown {
  if (path !== 'schedule') return f?.get(path);
  const parts = [...(f?.entries() ?? [])].filter(([p]) => p.startsWith('schedule.'));
  return parts.length > 0
    ? Object.fromEntries(parts.map(([p, v]) => [p.slice('schedule.'.length), v]))
    : undefined;
}

export function paths(a: Map<string, unknown> | undefined, b: Map<string, unknown> | undefined) {
  return new Set([...(a?.keys() ?? []), ...(b?.keys() ?? [])]);
}

export interface Sides {
  base: Facts;
  ours: Facts;
  theirs: Facts;
  result: Facts;
  merged: MergeResult;
}

export function sides(
  base: AppDefinition,
  theirs: AppDefinition,
  ours: ReadDefinition,
  merged: MergeResult = mergeDefinitions(base, theirs, ours),
): Sides {
  return {
    base: facts(base),
    ours: facts(ours),
    theirs: facts(theirs),
    result: facts(merged.definition),
    merged,
  };
}

/** (b) Every edit of the remix is in the result. */
function checkOursSurvives({ base, ours, result }: Sides) {
  for (const [key, mine] of ours) {
    const before = base.get(key);
    for (const path of paths(before, mine)) {
      if (same(before?.get(path), mine.get(path))) continue;
      expect(result.get(key)?.get(path), `ours' ${key} ${path}`).toEqual(mine.get(path));
    }
    if (!before) expect(result.has(key), `ours added ${key}`).toBe(true);
  }
  for (const key of base.keys()) {
    if (!ours.has(key)) expect(result.has(key), `ours deleted ${key}`).toBe(false);
  }
}

/** (c) Every change of the original arrived, or a conflict says why not. */
function checkTheirsArrives({ base, theirs, result, merged }: Sides) {
  const conflicts = new Set(merged.conflicts.map((c) => `${c.entity}:${c.id}#${c.property}`));
  const exists = (key: string | null) => key !== null && conflicts.has(`${key}#exists`);
  const coveredEntity = (key: string, f: Facts) => exists(key) || exists(parentKey(f, key));
  for (const [key, other] of theirs) {
    const before = base.get(key);
    if (!result.has(key)) {
      const untouched =
        before && [...paths(before, other)].every((p) => same(before.get(p), other.get(p)));
      if (!untouched) expect(coveredEntity(key, theirs), `theirs' ${key} is missing`).toBe(true);
      continue;
    }
    for (const path of paths(before, other)) {
      const value = other.get(path);
      if (same(before?.get(path), value) || same(result.get(key)!.get(path), value)) continue;
      const gone = referents(key, path, value).filter((r) => !result.has(r));
      const why =
        conflicts.has(`${key}#${path}`) ||
        (path.startsWith('schedule.') && conflicts.has(`${key}#schedule`)) ||
        (gone.length > 0 && gone.every(exists));
      expect(why, `theirs' ${key} ${path} = ${JSON.stringify(value)}`).toBe(true);
    }
  }
  for (const key of base.keys()) {
    if (theirs.has(key) || !result.has(key)) continue;
    expect(coveredEntity(key, result), `theirs deleted ${key}`).toBe(true);
  }
}

/** (d) The property conflicts are exactly what both sides changed differently. */
function checkConflicts({ base, ours, theirs, result, merged }: Sides) {
  const expected = new Set<string>();
  for (const [key, before] of base) {
    const mine = ours.get(key);
    const other = theirs.get(key);
    if (!mine || !other || !result.has(key)) continue;
    // A schedule whose kind a side changed merges whole: one conflict for it, not one per part.
    const kinds = [before, mine, other].map((f) => f.get('schedule.kind'));
    const whole = key.startsWith('reminder:') && new Set(kinds).size > 1;
    if (whole) {
      const [b, o, t] = [before, mine, other].map((f) => valueAt(f, 'schedule'));
      if (!same(o, b) && !same(t, b) && !same(o, t)) expected.add(`${key}#schedule`);
    }
    for (const path of new Set([...paths(before, mine), ...paths(undefined, other)])) {
      if (whole && path.startsWith('schedule.')) continue;
      const [b, o, t] = [before.get(path), mine.get(path), other.get(path)];
      if (same(o, b) || same(t, b) || same(o, t)) continue;
      if (path.startsWith('values.') && !result.has(`field:${path.slice(7)}`)) continue;
      expected.add(`${key}#${path}`);
    }
  }
  const actual = new Set<string>();
  for (const c of merged.conflicts) {
    const key = `${c.entity}:${c.id}`;
    if (c.property === 'exists') {
      if (c.ours === undefined) expect(result.has(key), `${key} dropped`).toBe(false);
      else expect(result.has(key) && !theirs.has(key), `${key} kept`).toBe(true);
      continue;
    }
    expect(result.has(key), `conflict on ${key}, which the result has`).toBe(true);
    if (c.property === 'order') continue;
    actual.add(`${key}#${c.property}`);
    expect(valueAt(result.get(key)!, c.property), `${key} ${c.property}`).toEqual(c.ours);
    expect(valueAt(theirs.get(key), c.property)).toEqual(c.theirs);
    if (!expected.has(`${key}#${c.property}`)) {
      // The original moved it into a parent the result does not have: it stays in ours'.
      expect(PARENTS[c.property], `unexpected conflict ${key} ${c.property}`).toBeDefined();
      expect(result.has(`${PARENTS[c.property]}:${String(c.theirs)}`)).toBe(false);
    }
  }
  for (const key of expected) expect(actual, 'a conflict for each').toContain(key);
}

/** What `incoming` lists did arrive: what it says was added, changed or removed is so. */
function checkIncoming({ result, merged }: Sides) {
  for (const change of merged.incoming.changes) {
    const key = `${change.entity}:${change.id}`;
    expect(result.has(key), `incoming ${key} ${change.change}`).toBe(change.change !== 'removed');
  }
}

/** Taking the original's value for any conflict still gives a valid definition, or says why not. */
function checkChoosing({ merged }: Sides) {
  for (const conflict of merged.conflicts) {
    try {
      const chosen = chooseTheirs(merged.definition, conflict);
      expect(appDefinitionSchema.safeParse(chosen).success).toBe(true);
    } catch (error) {
      expect(error).toBeInstanceOf(DefinitionError);
    }
  }
}

// --- Properties -------------------------------------------------------------------------------

/**
 * Two sides' edits. Independent edits rarely meet, so some edits are made on both sides, each
 * with its own word: the same property changed on both, to the same value or not.
 */
function twoSidesOf(
  bases: fc.Arbitrary<AppDefinition>,
  one: fc.Arbitrary<Edit>,
  many: fc.Arbitrary<Edit[]>,
) {
  return fc
    .record({
      base: bases,
      shared: fc.array(fc.record({ edit: one, w: word }), { maxLength: 4 }),
      ourEdits: many,
      theirEdits: many,
      invalid: fc.boolean(),
    })
    .map(({ base, shared, ourEdits, theirEdits, invalid }) => ({
      base,
      ourEdits: [...shared.map((s) => s.edit), ...ourEdits],
      theirEdits: [...shared.map((s) => ({ ...s.edit, w: s.w })), ...theirEdits],
      invalid,
    }));
}
export const twoSides = twoSidesOf(arbitraryBase, editArb, edits);
export const twoSidesWithReminders = twoSidesOf(baseWithReminders, anyEditArb, anyEdits);

export type TwoSides = typeof twoSides extends fc.Arbitrary<infer T> ? T : never;

export function checkAll({ base, ourEdits, theirEdits, invalid }: TwoSides) {
  const ours = editedSide(base, ourEdits, 'o');
  const theirs = editedSide(base, theirEdits, 't');
  checkSides(sides(base, theirs, withInvalid(ours, invalid)));
}

/** Everything that must hold of a merge: valid, ours kept, theirs taken, the conflicts listed. */
export function checkSides(s: Sides) {
  expect(appDefinitionSchema.safeParse(s.merged.definition).success).toBe(true);
  checkOursSurvives(s);
  checkTheirsArrives(s);
  checkConflicts(s);
  checkIncoming(s);
  checkChoosing(s);
}

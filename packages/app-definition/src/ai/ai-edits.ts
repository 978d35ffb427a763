import * as Y from 'yjs';
import { z } from 'zod';
import {
  type AppDefinition,
  COMPONENT_TYPES,
  type ComponentType,
  FIELD_TYPES,
} from '../schema/definition';
import { DefinitionError } from '../schema/edit-rules';
import { writeDefinition } from '../document/write-definition';
import { LIMITS } from '../schema/limits';
import {
  addCollection,
  addComponent,
  addField,
  addScreen,
  type IdFactory,
  moveComponent,
  removeComponent,
  renameCollection,
  setCollectionSharing,
  setComponentProps,
  setField,
  setScreen,
} from '../document/operations';
import {
  addAiAction,
  addReminder,
  setAiAction,
  removeReminder,
  setReminder,
} from '../document/action-operations';
import {
  formulaScheduleSchema,
  recordDayScheduleSchema,
  recordTimeScheduleSchema,
  REMINDER_LIMITS,
  type ReminderSchedule,
  reminderScheduleSchema,
  weeklyScheduleSchema,
} from '../schema/reminder';
import { checkForPublish, rawDefinition } from '../publish/publish-check';
import { isFieldListKey, readDefinition, referenceTable } from '../document/reader';
import { withoutInvalid } from '../document/known-definition';
import { COLLECTION_SHARING, RECORD_RULES } from '../schema/sharing';
import { ROLLUP_AGGREGATES, type RollupAggregate } from '../schema/relations';
import { lazySchema } from '@pipit/protocol';

/*
 * AI as a co-editor (docs/product/ai-builder.md): the model answers an instruction with a list of the typed
 * operations below, keyed by the ids of the current definition. A thing the list creates gets a
 * `ref` (a name of the model's choosing); later operations point at it by that name wherever an id
 * goes. The list is validated against the current definition, summarised for the person who asked,
 * and applied in one transaction through document/operations.ts.
 */

/** Most operations one answer may hold. */
export const AI_EDITS_MAX = 40;

const idOrRef = lazySchema(() =>
  z.string().min(1).max(64).describe('An id of the app, or the ref of a new thing.'),
);
const ref = lazySchema(() =>
  z.string().min(1).max(64).describe('A name for the new thing, for later operations.'),
);
const name = lazySchema(() => z.string().min(1).max(LIMITS.nameLength));

/** A field's formula, relation and rollup settings (docs/product/app-definition.md). */
const fieldLinks = () => ({
  formula: z.string().max(LIMITS.formulaLength).optional(),
  target: idOrRef.optional(),
  many: z.boolean().optional(),
  through: idOrRef.optional(),
  throughCollection: idOrRef.optional(),
  aggregate: z.enum(ROLLUP_AGGREGATES).optional(),
  aggregateFieldId: idOrRef.optional(),
});
const sharing = lazySchema(() =>
  z
    .enum(COLLECTION_SHARING)
    .describe(
      'private: each visitor keeps their own records; space: shared with people they invite.',
    ),
);
const recordRule = lazySchema(() =>
  z
    .enum(RECORD_RULES)
    .describe('In a space: anyone there may change a record, or only its author.'),
);
const props = lazySchema(() =>
  z
    .record(z.string(), z.unknown())
    .describe('Properties of the component, by name; ids or refs where an id goes.'),
);

const reminderTitle = lazySchema(() => z.string().min(1).max(REMINDER_LIMITS.titleLength));
const reminderBody = lazySchema(() => z.string().max(REMINDER_LIMITS.bodyLength));
const SCHEDULE_WORDS =
  'When to remind. weekly: days (1 Monday … 7 Sunday) at time (HH:MM). recordDay: days from a record’s date field (-1 the day before) at time. recordTime: minutes from a record’s date-and-time field (-60 an hour before). formula: on days at time, for the records of a collection whose yes/no formula is true. Ids or refs where an id goes.';

export const aiEditSchema = lazySchema(() =>
  z.discriminatedUnion('op', [
    z.object({ op: z.literal('addCollection'), ref, name }),
    z.object({ op: z.literal('renameCollection'), collectionId: idOrRef, name }),
    z.object({
      op: z.literal('setCollectionSharing'),
      collectionId: idOrRef,
      sharing: sharing.optional(),
      recordRule: recordRule.optional(),
    }),
    z.object({
      op: z.literal('addField'),
      ref,
      collectionId: idOrRef,
      name,
      type: z.enum(FIELD_TYPES),
      required: z.boolean().default(false),
      choices: z.array(z.string().max(LIMITS.choiceLength)).max(LIMITS.choices).default([]),
      ...fieldLinks(),
    }),
    z.object({
      op: z.literal('setField'),
      fieldId: idOrRef,
      name: name.optional(),
      required: z.boolean().optional(),
      choices: z.array(z.string().max(LIMITS.choiceLength)).max(LIMITS.choices).optional(),
      ...fieldLinks(),
    }),
    z.object({
      op: z.literal('addScreen'),
      ref,
      title: z.string().min(1).max(LIMITS.screenTitleLength),
      icon: z.string().min(1).max(LIMITS.screenIconLength).optional(),
    }),
    z.object({
      op: z.literal('setScreen'),
      screenId: idOrRef,
      title: z.string().min(1).max(LIMITS.screenTitleLength).optional(),
      icon: z.string().min(1).max(LIMITS.screenIconLength).optional(),
    }),
    z.object({
      op: z.literal('addComponent'),
      ref,
      screenId: idOrRef,
      type: z.enum(COMPONENT_TYPES as [ComponentType, ...ComponentType[]]),
      index: z.number().int().min(0).optional(),
      props: props.default({}),
    }),
    z.object({ op: z.literal('setProperty'), componentId: idOrRef, props }),
    z.object({ op: z.literal('removeComponent'), componentId: idOrRef }),
    z.object({
      op: z.literal('moveComponent'),
      componentId: idOrRef,
      index: z.number().int().min(0),
      screenId: idOrRef.optional(),
    }),
    z.object({
      op: z.literal('addAiAction'),
      ref,
      name,
      prompt: z.string().max(LIMITS.promptLength).default(''),
    }),
    z.object({
      op: z.literal('addReminder'),
      ref,
      title: reminderTitle,
      body: reminderBody.default(''),
      schedule: reminderScheduleSchema.describe(SCHEDULE_WORDS),
    }),
    z.object({
      op: z.literal('setReminder'),
      reminderId: idOrRef,
      title: reminderTitle.optional(),
      body: reminderBody.optional(),
      schedule: reminderScheduleSchema.optional(),
    }),
    z.object({ op: z.literal('removeReminder'), reminderId: idOrRef }),
  ]),
);
export type AiEdit = z.infer<typeof aiEditSchema>;

/** What the model answers: the operations, in order. */
export const aiEditsSchema = lazySchema(() =>
  z.object({ operations: z.array(aiEditSchema).max(AI_EDITS_MAX) }),
);
export type AiEdits = z.infer<typeof aiEditsSchema>;

/*
 * What the model writes: the same operations in a form every OpenAI-compatible server accepts under
 * `strict` structured output (every key present, null for "not given", no open-ended objects), so
 * a component's properties are a list of name and value pairs. `parseModelEdits` turns it (or the
 * plain form above, which lenient servers' models often write) into typed operations.
 */
const wireId = lazySchema(() =>
  z.string().describe('An id of the app, or the ref of a new thing.'),
);
const wireRef = lazySchema(() =>
  z.string().describe('A name for the new thing, for later operations.'),
);
const wireProps = lazySchema(() =>
  z
    .array(
      z.object({
        name: z.string().describe('A property of the component, e.g. subtitleFieldId or label.'),
        value: z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.string())]),
      }),
    )
    .describe('Properties to set; ids or refs where an id goes.'),
);
const wireText = (max: number) => z.string().max(max).nullable();
const wireFieldLinks = () => ({
  formula: wireText(LIMITS.formulaLength).describe(
    'A formula field’s expression, like {Price} * 2.',
  ),
  target: wireId.nullable().describe('A relation: the collection it links records of.'),
  many: z.boolean().nullable().describe('A relation: whether it links several records.'),
  through: wireId
    .nullable()
    .describe('A rollup: the relation field it works out over (here, or linking here).'),
  throughCollection: wireId
    .nullable()
    .describe('A rollup: the collection holding that relation, when it is not this one.'),
  aggregate: z.enum(ROLLUP_AGGREGATES).nullable(),
  aggregateFieldId: wireId.nullable().describe('A rollup: the linked records’ field it uses.'),
});

/** A schedule as the model writes it: each kind with every key present (strict mode). */
const wireSchedule = lazySchema(() =>
  z.union([
    weeklyScheduleSchema,
    recordDayScheduleSchema.extend({ collectionId: wireId, fieldId: wireId }),
    recordTimeScheduleSchema.extend({ collectionId: wireId, fieldId: wireId }),
    formulaScheduleSchema.extend({ collectionId: wireId }),
  ]),
);

const wireEditSchema = lazySchema(() =>
  z.union([
    z.object({ op: z.literal('addCollection'), ref: wireRef, name: z.string() }),
    z.object({ op: z.literal('renameCollection'), collectionId: wireId, name: z.string() }),
    z.object({
      op: z.literal('setCollectionSharing'),
      collectionId: wireId,
      sharing: sharing.nullable(),
      recordRule: recordRule.nullable(),
    }),
    z.object({
      op: z.literal('addField'),
      ref: wireRef,
      collectionId: wireId,
      name: z.string(),
      type: z.enum(FIELD_TYPES),
      required: z.boolean(),
      choices: z.array(z.string()),
      ...wireFieldLinks(),
    }),
    z.object({
      op: z.literal('setField'),
      fieldId: wireId,
      name: wireText(LIMITS.nameLength),
      required: z.boolean().nullable(),
      choices: z.array(z.string()).nullable(),
      ...wireFieldLinks(),
    }),
    z.object({
      op: z.literal('addScreen'),
      ref: wireRef,
      title: z.string(),
      icon: wireText(LIMITS.screenIconLength),
    }),
    z.object({
      op: z.literal('setScreen'),
      screenId: wireId,
      title: wireText(LIMITS.screenTitleLength),
      icon: wireText(LIMITS.screenIconLength),
    }),
    z.object({
      op: z.literal('addComponent'),
      ref: wireRef,
      screenId: wireId,
      type: z.enum(COMPONENT_TYPES as [ComponentType, ...ComponentType[]]),
      index: z.number().int().nullable(),
      props: wireProps,
    }),
    z.object({ op: z.literal('setProperty'), componentId: wireId, props: wireProps }),
    z.object({ op: z.literal('removeComponent'), componentId: wireId }),
    z.object({
      op: z.literal('moveComponent'),
      componentId: wireId,
      index: z.number().int(),
      screenId: wireId.nullable(),
    }),
    z.object({ op: z.literal('addAiAction'), ref: wireRef, name: z.string(), prompt: z.string() }),
    z.object({
      op: z.literal('addReminder'),
      ref: wireRef,
      title: z.string(),
      body: z.string(),
      schedule: wireSchedule.describe(SCHEDULE_WORDS),
    }),
    z.object({
      op: z.literal('setReminder'),
      reminderId: wireId,
      title: wireText(REMINDER_LIMITS.titleLength),
      body: wireText(REMINDER_LIMITS.bodyLength),
      schedule: wireSchedule.nullable(),
    }),
    z.object({ op: z.literal('removeReminder'), reminderId: wireId }),
  ]),
);

/** The model's answer as JSON schema: strict-mode compatible (see above). */
export const aiEditsModelSchema = lazySchema(() =>
  z.object({
    operations: z.array(wireEditSchema).describe(`At most ${AI_EDITS_MAX} operations, in order.`),
  }),
);

/** The JSON schema of the model's answer, for structured output. */
export function aiEditsJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(aiEditsModelSchema, { target: 'draft-7' }) as Record<string, unknown>;
}

/** One operation as the model wrote it, in the plain form: nulls dropped, props as an object. */
function plainEdit(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (item === null) continue;
    if (key === 'props' && Array.isArray(item)) {
      const props: Record<string, unknown> = {};
      for (const pair of item as unknown[]) {
        const { name: prop, value: propValue } = (pair ?? {}) as {
          name?: unknown;
          value?: unknown;
        };
        if (typeof prop === 'string') props[prop] = propValue;
      }
      out[key] = props;
    } else out[key] = item;
  }
  return out;
}

/**
 * A model's answer as typed operations, or its problems in words the model can act on. Takes the
 * strict form (aiEditsModelSchema) and the plain one (aiEditsSchema).
 */
export function parseModelEdits(
  value: unknown,
): { ok: true; operations: AiEdit[] } | { ok: false; problems: string[] } {
  const operations = (value as { operations?: unknown } | null)?.operations;
  const parsed = aiEditsSchema.safeParse({
    operations: Array.isArray(operations) ? operations.map(plainEdit) : operations,
  });
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.map(
        (i) => `${i.path.map(String).join('.') || '(answer)'}: ${i.message}`,
      ),
    };
  }
  return { ok: true, operations: parsed.data.operations };
}

export type Source = Y.Doc | AppDefinition;

/** A field operation's formula, relation and rollup settings, refs made ids. */
function linkSettings(
  op: Partial<
    Record<'formula' | 'target' | 'through' | 'throughCollection' | 'aggregateFieldId', string>
  > & {
    many?: boolean;
    aggregate?: RollupAggregate;
  },
  id: (value: string) => string,
) {
  const of = (value: string | undefined) => (value === undefined ? undefined : id(value));
  return {
    formula: op.formula,
    target: of(op.target),
    many: op.many,
    through: of(op.through),
    throughCollection: of(op.throughCollection),
    aggregate: op.aggregate,
    aggregateFieldId: of(op.aggregateFieldId),
  };
}

function docOf(source: Source): Y.Doc {
  const doc = new Y.Doc();
  if (source instanceof Y.Doc) Y.applyUpdate(doc, Y.encodeStateAsUpdate(source));
  else writeDefinition(doc, source);
  return doc;
}

export type Json = Record<string, unknown>;
export const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);
export const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * What the model is shown of an app: its collections, fields, screens, components, actions and AI
 * actions with their ids and names, and the components' settings. Never a record's values, the
 * creator's or a visitor's.
 */
export function editableStructure(source: Source): Json {
  const raw = source instanceof Y.Doc ? rawDefinition(source) : (source as unknown as Json);
  const meta = (raw.meta ?? {}) as Json;
  return {
    title: str(meta.title),
    collections: list(raw.collections).map((c) => ({
      id: c.id,
      name: c.name,
      sharing: c.sharing ?? 'private',
      recordRule: c.recordRule ?? 'anyone',
      fields: list(c.fields).map((f) => ({
        id: f.id,
        name: f.name,
        type: f.type,
        required: f.required,
        choices: f.options,
      })),
    })),
    screens: list(raw.screens).map((s) => ({
      id: s.id,
      title: s.title,
      icon: s.icon,
      components: list(s.components).map((c) => ({ id: c.id, type: c.type, props: c.props })),
    })),
    actions: list(raw.actions).map((a) => ({ id: a.id, name: a.name })),
    aiActions: list(raw.aiActions).map((a) => ({ id: a.id, name: a.name })),
    reminders: list(raw.reminders).map((r) => ({ id: r.id, title: r.title, schedule: r.schedule })),
  };
}

/** A schedule with refs made ids: the collection and field it is about may be new in the list. */
function resolveSchedule(schedule: ReminderSchedule, id: (value: string) => string) {
  if (schedule.kind === 'weekly') return schedule;
  if (schedule.kind === 'formula') return { ...schedule, collectionId: id(schedule.collectionId) };
  return { ...schedule, collectionId: id(schedule.collectionId), fieldId: id(schedule.fieldId) };
}

/** Replaces refs with the ids they were given, wherever a props value holds an id. */
function resolveProps(props: Json, ids: Map<string, string>): Json {
  const one = (value: unknown) => (typeof value === 'string' ? (ids.get(value) ?? value) : value);
  const out: Json = {};
  for (const [key, value] of Object.entries(props)) {
    if (referenceTable(key)) out[key] = one(value);
    else if (isFieldListKey(key) && Array.isArray(value)) out[key] = value.map(one);
    else if ((key === 'filter' || key === 'sort') && value && typeof value === 'object') {
      out[key] = { ...(value as Json), fieldId: one((value as Json).fieldId) };
    } else out[key] = value;
  }
  return out;
}

function zodMessage(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.map(String).join('.') || 'value'}: ${issue.message}`)
    .join('; ');
}

/** Runs the operations on `doc` (inside whatever transaction the caller holds). */
function run(
  doc: Y.Doc,
  ops: AiEdit[],
  newId: IdFactory,
  onProblem: (i: number, m: string) => void,
) {
  const ids = new Map<string, string>();
  const id = (value: string) => ids.get(value) ?? value;
  const created = (refName: string, made: string) => ids.set(refName, made);
  ops.forEach((op, i) => {
    try {
      switch (op.op) {
        case 'addCollection':
          created(op.ref, addCollection(doc, newId, op.name));
          break;
        case 'renameCollection':
          renameCollection(doc, id(op.collectionId), op.name);
          break;
        case 'setCollectionSharing':
          setCollectionSharing(doc, id(op.collectionId), {
            sharing: op.sharing,
            recordRule: op.recordRule,
          });
          break;
        case 'addField':
          created(
            op.ref,
            addField(doc, newId, id(op.collectionId), {
              name: op.name,
              type: op.type,
              required: op.required,
              options: op.type === 'select' || op.type === 'multiChoice' ? op.choices : [],
              ...linkSettings(op, id),
            }),
          );
          break;
        case 'setField':
          setField(doc, id(op.fieldId), {
            name: op.name,
            required: op.required,
            options: op.choices,
            ...linkSettings(op, id),
          });
          break;
        case 'addScreen':
          created(op.ref, addScreen(doc, newId, { title: op.title, icon: op.icon }));
          break;
        case 'setScreen':
          setScreen(doc, id(op.screenId), { title: op.title, icon: op.icon });
          break;
        case 'addComponent':
          created(
            op.ref,
            addComponent(
              doc,
              newId,
              id(op.screenId),
              op.type,
              op.index ?? Infinity,
              resolveProps(op.props, ids),
            ),
          );
          break;
        case 'setProperty':
          setComponentProps(doc, id(op.componentId), resolveProps(op.props, ids));
          break;
        case 'removeComponent':
          removeComponent(doc, id(op.componentId));
          break;
        case 'moveComponent':
          moveComponent(doc, id(op.componentId), op.index, op.screenId && id(op.screenId));
          break;
        case 'addAiAction': {
          const made = addAiAction(doc, newId, op.name);
          if (op.prompt) setAiAction(doc, made, { prompt: op.prompt });
          created(op.ref, made);
          break;
        }
        case 'addReminder':
          created(
            op.ref,
            addReminder(doc, newId, {
              title: op.title,
              body: op.body,
              schedule: resolveSchedule(op.schedule, id),
            }),
          );
          break;
        case 'setReminder':
          setReminder(doc, id(op.reminderId), {
            title: op.title,
            body: op.body,
            schedule: op.schedule && resolveSchedule(op.schedule, id),
          });
          break;
        case 'removeReminder':
          removeReminder(doc, id(op.reminderId));
          break;
      }
    } catch (error) {
      if (error instanceof DefinitionError) onProblem(i, error.message);
      else if (error instanceof z.ZodError) onProblem(i, zodMessage(error));
      else throw error;
    }
  });
}

/** One thing wrong with a list of operations: where (`operations.3`, or `app` for the result). */
export interface EditProblem {
  path: string;
  message: string;
}

const problemKey = (p: {
  entity: { table: string; id: string } | null;
  message: string;
  path: string;
}) => `${p.entity ? `${p.entity.table}/${p.entity.id}` : p.path}:${p.message}`;

/**
 * Runs the operations on `doc` and says everything wrong: each operation that could not run, then
 * every problem the publish check finds in the result that the app did not already have.
 */
function runChecked(doc: Y.Doc, ops: AiEdit[], newId: IdFactory): EditProblem[] {
  const before = checkForPublish(doc);
  const known = new Set(before.ok ? [] : before.problems.map(problemKey));
  const problems: EditProblem[] = [];
  doc.transact(() =>
    run(doc, ops, newId, (i, message) => problems.push({ path: `operations.${i}`, message })),
  );
  if (problems.length > 0) return problems;
  const after = checkForPublish(doc);
  if (!after.ok) {
    for (const problem of after.problems) {
      if (!known.has(problemKey(problem))) {
        problems.push({ path: problem.path || 'app', message: problem.message });
      }
    }
  }
  return problems;
}

/** The operations of a list, or the problems of one that is not a list of operations. */
function parseEdits(
  ops: unknown,
): { ok: true; ops: AiEdit[] } | { ok: false; problems: EditProblem[] } {
  const parsed = aiEditsSchema.safeParse({ operations: ops });
  if (parsed.success) return { ok: true, ops: parsed.data.operations };
  return {
    ok: false,
    problems: parsed.error.issues.map((issue) => ({
      path: issue.path.map(String).join('.'),
      message: issue.message,
    })),
  };
}

/**
 * Everything wrong with a list of operations for this app: each operation must name things that
 * exist (or were made earlier in the list), its properties must fit the component's schema and the
 * limits must hold; the changed app must still parse and carry no reference that the app did not
 * already have. Empty when the list may be applied. Nothing is changed: they run on a copy.
 */
export function validateEdits(source: Source, ops: unknown): EditProblem[] {
  const parsed = parseEdits(ops);
  if (!parsed.ok) return parsed.problems;
  const doc = docOf(source);
  let n = 0;
  try {
    return runChecked(doc, parsed.ops, () => `ai-check-${++n}`);
  } finally {
    doc.destroy();
  }
}

/**
 * What a list of operations would make of the app in `doc`, without changing it: the app as it is
 * (`base`) and with the operations run on a copy (`proposed`), for a person to review part by part
 * (`changeParts`) and take into the app as it is then (`mergeDefinitions` with `taken`). A list
 * with problems throws a DefinitionError naming the first.
 */
export function suggestEdits(
  doc: Y.Doc,
  ops: AiEdit[],
  newId: IdFactory,
): { base: AppDefinition; proposed: AppDefinition } {
  const proposed = onCopy(doc, ops, newId, (scratch) => withoutInvalid(readDefinition(scratch)));
  return { base: withoutInvalid(readDefinition(doc)), proposed };
}

/**
 * Runs the operations on a copy of `doc`, checked: a list with problems throws a DefinitionError
 * naming the first; else `after` reads what the copy became. `doc` itself is not touched.
 */
function onCopy<T>(doc: Y.Doc, ops: AiEdit[], newId: IdFactory, after: (scratch: Y.Doc) => T): T {
  const parsed = parseEdits(ops);
  const scratch = docOf(doc);
  try {
    const problems = parsed.ok ? runChecked(scratch, parsed.ops, newId) : parsed.problems;
    if (problems.length > 0) {
      throw new DefinitionError(
        `This change no longer fits the app: ${problems[0]?.message ?? 'it changed meanwhile'}`,
      );
    }
    return after(scratch);
  } finally {
    scratch.destroy();
  }
}

/**
 * Applies a list of operations to the live document in ONE transaction with `origin` (the editor's
 * LOCAL_EDIT, so the person's Undo removes the whole change in one step). Checked first: a list with
 * problems changes nothing and throws a DefinitionError naming the first problem.
 *
 * Yjs cannot roll a transaction back, so nothing runs on the live document itself: the operations
 * run on a copy, with the ids they will keep, and are checked there; only a list that ran whole
 * reaches the document, as one update applied with `origin` (as `mergeVisitorData` does). The copy
 * writes as a client of its own: an update carrying the document's own client id would make Yjs
 * take it for another device using that id and pick a new one.
 */
export function applyEdits(doc: Y.Doc, ops: AiEdit[], newId: IdFactory, origin: unknown): void {
  onCopy(doc, ops, newId, (scratch) =>
    Y.applyUpdate(doc, Y.encodeStateAsUpdate(scratch, Y.encodeStateVector(doc)), origin),
  );
}

import { z } from 'zod';
import { LIMITS, SCHEMA_VERSION } from './limits';
import { safeUrlSchema } from './safe-url';
import { appMetaSchema } from './meta';
import { themeSchema } from './theme';
import { COLLECTION_SHARING, RECORD_RULES } from './sharing';
import { LIST_VIEWS } from './list-views';
import { ROLLUP_AGGREGATES } from './relations';
import { FIELD_TYPES } from './field-types';
import { reminderSchema } from './reminder';

export {
  FIELD_TYPES,
  COMPUTED_FIELD_TYPES,
  FILE_FIELD_TYPES,
  NUMERIC_FIELD_TYPES,
  TYPED_FIELD_TYPES,
  type FieldType,
} from './field-types';

const id = z.string().min(1).max(64);
const label = (max = 120) => z.string().max(max);

/** One of a select or multi-choice field's choices. */
const choice = label(LIMITS.choiceLength);

export const fieldSchema = z.object({
  id,
  name: label(LIMITS.nameLength).min(1, 'Name the field.'),
  type: z.enum(FIELD_TYPES),
  required: z.boolean().default(false),
  default: z
    .union([z.string(), z.number(), z.boolean(), z.null(), z.array(choice).max(LIMITS.choices)])
    .default(null),
  /** The choices of a `select` or `multiChoice` field. */
  options: z.array(choice).max(LIMITS.choices).default([]),
  /** A rating field's number of stars (5 when absent). Only fields that need it carry it. */
  scale: z.number().int().min(3).max(10).optional(),
  /** A formula field's expression (docs/product/app-definition.md, Formulas). */
  formula: z.string().max(LIMITS.formulaLength).optional(),
  /** A relation's collection: the records it links to. */
  target: id.optional(),
  /** A relation that links several records (one when absent). */
  many: z.boolean().optional(),
  /** A rollup's relation field: in this collection, or in `throughCollection` linking here. */
  through: id.optional(),
  /** The collection holding a rollup's relation when it links *to* this one (absent: this one). */
  throughCollection: id.optional(),
  /** What a rollup works out (count when absent). */
  aggregate: z.enum(ROLLUP_AGGREGATES).optional(),
  /** The linked records' field a rollup sums, averages, … (none for a count). */
  aggregateFieldId: id.optional(),
});
export type Field = z.infer<typeof fieldSchema>;

/** A list value: a multi-choice field's choices, or the ids of the records a relation links. */
const listValue = z.array(z.string().max(64)).max(Math.max(LIMITS.choices, LIMITS.relationLinks));

/** A record's values, by field id. */
export const recordValuesSchema = z.record(
  z.string(),
  z.union([z.string(), z.number(), z.boolean(), z.null(), listValue]),
);

export const creatorRecordSchema = z.object({ id, values: recordValuesSchema });
export type CreatorRecord = z.infer<typeof creatorRecordSchema>;

export const collectionSchema = z.object({
  id,
  name: label(LIMITS.nameLength).min(1, 'Name the collection.'),
  fields: z
    .array(fieldSchema)
    .max(LIMITS.fieldsPerCollection, `Use at most ${LIMITS.fieldsPerCollection} fields.`),
  /** Content every visitor sees, read-only to them. */
  records: z
    .array(creatorRecordSchema)
    .max(LIMITS.creatorRecords, `Use at most ${LIMITS.creatorRecords} records.`),
  /** Where the records visitors add live: each visitor's own, or a space shared with others. */
  sharing: z.enum(COLLECTION_SHARING).default('private'),
  /** In a shared space: whether anyone there may change a record, or only the one who added it. */
  recordRule: z.enum(RECORD_RULES).default('anyone'),
});
export type Collection = z.infer<typeof collectionSchema>;

/** How a list compares a field with a value (docs/product/app-definition.md list filter). */
export const FILTER_OPS = [
  'equals',
  'notEquals',
  'contains',
  'greaterThan',
  'lessThan',
  'isTrue',
  'isFalse',
  'isEmpty',
  'isNotEmpty',
] as const;
export type FilterOp = (typeof FILTER_OPS)[number];

const filterSchema = z.object({
  fieldId: id,
  op: z.enum(FILTER_OPS),
  value: z.string().max(LIMITS.filterValueLength).default(''),
});
const sortSchema = z.object({ fieldId: id, direction: z.enum(['asc', 'desc']).default('asc') });

/**
 * Every component type of docs/product/app-definition.md and its properties (defaults make a new
 * one usable at once).
 */
export const COMPONENT_PROPS = {
  heading: z.object({
    text: label(200).default('Heading'),
    level: z.union([z.literal(1), z.literal(2), z.literal(3)]).default(2),
  }),
  text: z.object({ markdown: z.string().max(LIMITS.textLength).default('') }),
  image: z.object({
    src: z.union([safeUrlSchema, z.literal('')]).default(''),
    alt: label(300).default(''),
    fit: z.enum(['cover', 'contain']).default('cover'),
  }),
  button: z.object({
    label: label(60).default('Button'),
    actionId: id.nullable().default(null),
    style: z.enum(['primary', 'secondary']).default('primary'),
  }),
  list: z.object({
    collectionId: id.nullable().default(null),
    /** How the records show (list-views.ts); each view's own properties follow, all optional. */
    view: z.enum(LIST_VIEWS).default('list'),
    /** A table's columns, in order; none chosen: the first fields. */
    columnFieldIds: z.array(id).max(LIMITS.fieldsPerCollection).default([]),
    /** A board's columns: one per choice of this select field. */
    groupFieldId: id.nullable().default(null),
    /** Where a calendar places each record. */
    dateFieldId: id.nullable().default(null),
    /** A gallery's pictures: a web address (or image) field. */
    imageFieldId: id.nullable().default(null),
    /** A calendar's day opens this screen, its create form's date filled in. */
    addScreenId: id.nullable().default(null),
    titleFieldId: id.nullable().default(null),
    subtitleFieldId: id.nullable().default(null),
    filter: filterSchema.nullable().default(null),
    sort: sortSchema.nullable().default(null),
    emptyText: label(200).default('Nothing here yet.'),
    /** Tapping an item opens this screen with that record. */
    detailScreenId: id.nullable().default(null),
    /** Visitors get a search box and a quick filter. */
    search: z.boolean().default(true),
  }),
  detail: z.object({ fieldIds: z.array(id).max(LIMITS.fieldsPerCollection).default([]) }),
  form: z.object({
    collectionId: id.nullable().default(null),
    mode: z.enum(['create', 'edit']).default('create'),
    fieldIds: z.array(id).max(LIMITS.fieldsPerCollection).default([]),
    submitLabel: label(60).default('Save'),
    /** Runs after a successful submit. */
    actionId: id.nullable().default(null),
  }),
  checklist: z.object({
    collectionId: id.nullable().default(null),
    titleFieldId: id.nullable().default(null),
    checkFieldId: id.nullable().default(null),
  }),
  counter: z.object({
    label: label(60).default('Count'),
    step: z.number().int().min(1).max(1000).default(1),
  }),
  stat: z.object({
    label: label(60).default('Total'),
    collectionId: id.nullable().default(null),
    aggregate: z.enum(['count', 'sum', 'average', 'min', 'max']).default('count'),
    fieldId: id.nullable().default(null),
  }),
  chart: z.object({
    kind: z.enum(['bar', 'line', 'pie']).default('bar'),
    collectionId: id.nullable().default(null),
    labelFieldId: id.nullable().default(null),
    valueFieldId: id.nullable().default(null),
    aggregate: z.enum(['count', 'sum', 'average']).default('count'),
  }),
  timer: z.object({
    label: label(60).default('Timer'),
    mode: z.enum(['countdown', 'stopwatch']).default('countdown'),
    seconds: z.number().int().min(1).max(86_400).default(300),
  }),
  divider: z.object({}),
  link: z.object({
    label: label(120).default('Link'),
    url: z.union([safeUrlSchema, z.literal('')]).default(''),
  }),
  ai: z.object({ label: label(60).default('Ask AI'), aiActionId: id.nullable().default(null) }),
} as const;

export type ComponentType = keyof typeof COMPONENT_PROPS;
export const COMPONENT_TYPES = Object.keys(COMPONENT_PROPS) as ComponentType[];
export type ComponentProps<T extends ComponentType> = z.infer<(typeof COMPONENT_PROPS)[T]>;

export type Component = {
  [T in ComponentType]: { id: string; type: T; props: ComponentProps<T> };
}[ComponentType];

/** What the reader yields for a component it cannot use; the runtime renders a placeholder. */
export interface InvalidComponent {
  id: string;
  type: 'invalid';
  originalType: string;
  problem: string;
}

export const componentSchema = z.discriminatedUnion(
  'type',
  COMPONENT_TYPES.map((type) =>
    z.object({ id, type: z.literal(type), props: COMPONENT_PROPS[type] }),
  ) as unknown as [
    z.ZodObject<{
      id: typeof id;
      type: z.ZodLiteral<'heading'>;
      props: (typeof COMPONENT_PROPS)['heading'];
    }>,
  ],
) as unknown as z.ZodType<Component>;

export const screenSchema = z.object({
  id,
  title: label(LIMITS.screenTitleLength).min(1, 'Give the screen a title.'),
  icon: label(LIMITS.screenIconLength).default('📄'),
  components: z
    .array(componentSchema)
    .max(
      LIMITS.componentsPerScreen,
      `Use at most ${LIMITS.componentsPerScreen} components on a screen.`,
    ),
});
export type Screen = z.infer<typeof screenSchema>;

/** Step values may use `{{record.field}}`, `{{input.field}}`, `{{user.name}}` (no code runs). */
const template = z.string().max(LIMITS.templateLength);

export const STEP_PROPS = {
  navigate: z.object({ screenId: id.nullable().default(null) }),
  back: z.object({}),
  createRecord: z.object({
    collectionId: id.nullable().default(null),
    values: z.record(z.string(), template).default({}),
  }),
  updateRecord: z.object({ values: z.record(z.string(), template).default({}) }),
  deleteRecord: z.object({}),
  setField: z.object({ fieldId: id.nullable().default(null), value: template.default('') }),
  openUrl: z.object({ url: z.union([safeUrlSchema, z.literal('')]).default('') }),
  toast: z.object({ message: template.default('Done') }),
  runAi: z.object({ aiActionId: id.nullable().default(null) }),
} as const;

export type StepType = keyof typeof STEP_PROPS;
export const STEP_TYPES = Object.keys(STEP_PROPS) as StepType[];
export type Step = {
  [T in StepType]: { id: string; type: T; props: z.infer<(typeof STEP_PROPS)[T]> };
}[StepType];

export const stepSchema = z.discriminatedUnion(
  'type',
  STEP_TYPES.map((type) =>
    z.object({ id, type: z.literal(type), props: STEP_PROPS[type] }),
  ) as unknown as [
    z.ZodObject<{ id: typeof id; type: z.ZodLiteral<'back'>; props: (typeof STEP_PROPS)['back'] }>,
  ],
) as unknown as z.ZodType<Step>;

export const actionSchema = z.object({
  id,
  name: label(LIMITS.nameLength).min(1, 'Name the action.'),
  steps: z
    .array(stepSchema)
    .max(LIMITS.stepsPerAction, `Use at most ${LIMITS.stepsPerAction} steps in one action.`),
});
export type Action = z.infer<typeof actionSchema>;

export const aiActionSchema = z.object({
  id,
  name: label(LIMITS.nameLength).min(1, 'Name the AI action.'),
  /** A template: `{{record.field}}`, `{{input.field}}`, `{{user.name}}` are replaced, nothing runs. */
  prompt: z.string().max(LIMITS.promptLength).default(''),
  output: z
    .discriminatedUnion('kind', [
      z.object({ kind: z.literal('text') }),
      z.object({ kind: z.literal('record'), collectionId: id.nullable() }),
    ])
    .default({ kind: 'text' }),
  target: z
    .discriminatedUnion('kind', [
      z.object({ kind: z.literal('component') }),
      z.object({ kind: z.literal('field'), fieldId: id.nullable() }),
      z.object({ kind: z.literal('createRecord'), collectionId: id.nullable() }),
    ])
    .default({ kind: 'component' }),
});
export type AiAction = z.infer<typeof aiActionSchema>;

/** A whole app definition, as JSON: what is published, exported and rendered. */
export const appDefinitionSchema = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  meta: appMetaSchema,
  theme: themeSchema,
  screens: z
    .array(screenSchema)
    .min(1, 'An app needs at least one screen.')
    .max(LIMITS.screens, `Use at most ${LIMITS.screens} screens.`),
  collections: z
    .array(collectionSchema)
    .max(LIMITS.collections, `Use at most ${LIMITS.collections} collections.`),
  actions: z.array(actionSchema).max(LIMITS.actions),
  aiActions: z.array(aiActionSchema).max(LIMITS.aiActions),
  /** Absent from definitions saved before apps had reminders: none. */
  reminders: z
    .array(reminderSchema)
    .max(LIMITS.reminders, `Use at most ${LIMITS.reminders} reminders.`)
    .default([]),
});
export type AppDefinition = z.infer<typeof appDefinitionSchema>;

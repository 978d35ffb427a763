import { z } from 'zod';
import {
  type Action,
  type AppDefinition,
  type Component,
  COMPUTED_FIELD_TYPES,
  FIELD_TYPES,
  NUMERIC_FIELD_TYPES,
  TYPED_FIELD_TYPES,
  type FieldType,
  type Screen,
} from '../schema/definition';
import { coerceFieldValue, type FieldValue } from '../schema/field-values';
import type { IdFactory } from '../document/operations';
import { LIMITS, SCHEMA_VERSION } from '../schema/limits';
import { DEFAULT_APP_ICON } from '../schema/meta';
import { type ThemePreset, THEME_PRESETS, themeSchema } from '../schema/theme';
import { PRESET_TOKENS } from '../schema/theme-presets';
import { COMPONENT_PROPS } from '../schema/definition';
import { fitsViewField, LIST_VIEWS, type ListView, type ViewFieldKey } from '../schema/list-views';
import { ROLLUP_AGGREGATES } from '../schema/relations';
import { type FieldLinks, linkFields } from './blueprint-links';
import {
  REMINDER_LIMITS,
  type Reminder,
  type ReminderSchedule,
  timeOfDaySchema,
  type Weekday,
} from '../schema/reminder';

/*
 * An app from a description (docs/product/ai-builder.md). Small local models cannot write a whole
 * definition reliably, so the model answers with a compact BLUEPRINT — what the app keeps and which
 * screens it has — and `expandBlueprint` turns it, deterministically, into a full definition that
 * passes the same parse and publish check as a hand-made app. Names connect the parts (a screen
 * names its collection, a field is named by its name); nothing the model writes is an id, a URL or
 * markup: text stays text.
 */

/** What one blueprint expands to at most (well inside LIMITS: a starting point, not a whole app). */
export const BLUEPRINT_LIMITS = {
  collections: 8,
  fieldsPerCollection: 16,
  choices: 12,
  samples: 6,
  screens: 12,
  components: 12,
  actions: 12,
  reminders: 5,
  textLength: 2_000,
} as const;

export const BLUEPRINT_SCREEN_KINDS = ['list', 'detail', 'form', 'text', 'dashboard'] as const;
export type BlueprintScreenKind = (typeof BLUEPRINT_SCREEN_KINDS)[number];

export const BLUEPRINT_COMPONENT_TYPES = [
  'heading',
  'text',
  'stat',
  'chart',
  'checklist',
  'counter',
  'timer',
  'divider',
] as const;

const name = z.string().describe('A short name, as people read it.');
const sampleValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/**
 * What a blueprint's field may be: every type but a person, which picks someone in a shared space,
 * and a blueprint's collections are each visitor's own (the publish check refuses it there).
 */
export const BLUEPRINT_FIELD_TYPES = FIELD_TYPES.filter((t) => t !== 'person') as [
  FieldType,
  ...FieldType[],
];

export const blueprintFieldSchema = z.object({
  name,
  type: z.enum(BLUEPRINT_FIELD_TYPES),
  required: z.boolean(),
  /** The choices of a `select` field (empty for other types). */
  choices: z.array(z.string()).describe('Choices of a select field; empty for other types.'),
  // Each of these came after the first blueprints: one written without them still parses.
  links: z
    .string()
    .default('')
    .describe(
      'relation: the collection it links records of, by name (a guest links Events). rollup: the linked collection it works out over, either way. "" for other types.',
    ),
  many: z.boolean().default(false).describe('relation: whether it links several records.'),
  aggregate: z
    .enum(ROLLUP_AGGREGATES)
    .default('count')
    .describe('rollup: what it works out over the linked records ("count" for other types).'),
  over: z
    .string()
    .default('')
    .describe('rollup: the linked collection’s field it sums, averages…, by name; "" for count.'),
  formula: z
    .string()
    .default('')
    .describe(
      'formula: its expression over this collection’s fields, like {Price} * {Quantity} or IF({Done}, "Yes", "No"); "" for other types.',
    ),
});

export const blueprintCollectionSchema = z.object({
  name: name.describe('Plural, e.g. "Recipes".'),
  fields: z.array(blueprintFieldSchema).describe('At most 16 fields; the first one is the title.'),
  samples: z
    .array(z.array(sampleValue))
    .describe(
      'Example records every visitor sees (e.g. recipes of a recipe book), each a list of values in the order of the fields; empty when people enter their own.',
    ),
});

export const blueprintComponentSchema = z.object({
  type: z.enum(BLUEPRINT_COMPONENT_TYPES),
  text: z.string().describe('The heading, text, label or counter name.'),
  collection: z.string().describe('The collection it is about, by name, or "".'),
  field: z.string().describe('The field it is about, by name, or "".'),
});

export const blueprintScreenSchema = z.object({
  title: name,
  icon: z.string().describe('One emoji.'),
  kind: z
    .enum(BLUEPRINT_SCREEN_KINDS)
    .describe(
      'list: the records of a collection; detail: one record; form: add a record; text: words only; dashboard: figures.',
    ),
  collection: z.string().describe('The collection the screen shows, by name, or "".'),
  /** A blueprint written before views existed has none: a plain list. */
  view: z
    .enum(LIST_VIEWS)
    .default('list')
    .describe(
      'How a list screen shows its records: list; table to compare several fields; board to move records between the choices of a select field (a status, say); calendar for records with a date; gallery for records with a photo (an image field) or a picture’s web address. "list" for other kinds.',
    ),
  text: z.string().describe('A sentence or two shown under the title, or "".'),
  components: z.array(blueprintComponentSchema).describe('Other things on the screen, at most 12.'),
});

export const blueprintActionSchema = z.object({
  label: z.string().describe('The button text.'),
  screen: z.string().describe('The screen the button is on, by title.'),
  kind: z.enum(['open', 'message']),
  target: z.string().describe('For open: the screen it opens, by title.'),
  message: z.string().describe('For message: what it says.'),
});

export const BLUEPRINT_REMINDER_KINDS = ['everyDay', 'weekdays', 'weekly', 'onDate'] as const;

export const blueprintReminderSchema = z.object({
  title: z.string().describe('What the notification says first, like "Log your habits".'),
  text: z.string().describe('A sentence under it, like "Did you log today’s habits?", or "".'),
  when: z
    .enum(BLUEPRINT_REMINDER_KINDS)
    .describe(
      'everyDay; weekdays (Monday to Friday); weekly (on one weekday); onDate: counted from a date field of each record (a task’s due date).',
    ),
  time: z.string().describe('The time of day, like 20:00.'),
  weekday: z.number().describe('weekly: 1 (Monday) to 7 (Sunday); 1 otherwise.'),
  collection: z.string().describe('onDate: the collection, by name; "" otherwise.'),
  field: z.string().describe('onDate: its date field, by name; "" otherwise.'),
  daysBefore: z
    .number()
    .describe('onDate: how many days before the date (0 on the day itself); 0 otherwise.'),
});

export const blueprintSchema = z.object({
  title: z.string().describe('The app’s name, at most 60 characters.'),
  description: z.string().describe('One or two sentences.'),
  icon: z.string().describe('One emoji.'),
  theme: z.object({
    preset: z.enum(THEME_PRESETS),
    accent: z.string().describe('A colour like #b4540a, or "".'),
  }),
  collections: z.array(blueprintCollectionSchema).describe('What the app keeps, at most 8.'),
  screens: z.array(blueprintScreenSchema).describe('At most 12 screens; the first opens first.'),
  actions: z.array(blueprintActionSchema).describe('Buttons, at most 12.'),
  // Came after the first blueprints: one written without them still parses.
  reminders: z
    .array(blueprintReminderSchema)
    .default([])
    .describe(
      'Notifications the app can send those who turn them on, at most 5; empty when the app needs none.',
    ),
});
/** As a model may write it: a screen's `view` may be missing (the answer parses with `list`). */
export type Blueprint = z.input<typeof blueprintSchema>;
export type BlueprintCollection = z.infer<typeof blueprintCollectionSchema>;
export type BlueprintField = z.input<typeof blueprintFieldSchema>;
export type BlueprintScreen = z.input<typeof blueprintScreenSchema>;

/** The blueprint's JSON schema, for the model's structured output. */
export function blueprintJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(blueprintSchema, { target: 'draft-7' }) as Record<string, unknown>;
}

/** The validation problems of a model's answer, one readable line each (for the repair round). */
export function blueprintProblems(value: unknown): string[] {
  const parsed = blueprintSchema.safeParse(value);
  return parsed.success
    ? []
    : parsed.error.issues.map(
        (i) => `${i.path.map(String).join('.') || '(blueprint)'}: ${i.message}`,
      );
}

// Expansion

const HEX = /^#[0-9a-f]{6}$/i;
/** Characters that have no place in a name: control characters and line breaks. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what it removes
const CONTROL = /[\u0000-\u001f\u007f]/g;

/** Text as a name: one line, trimmed, cut to `max` (an empty result is null). */
function clean(text: string, max: number): string | null {
  const one = text.replace(CONTROL, ' ').replace(/\s+/g, ' ').trim();
  const cut = [...one].slice(0, max).join('').trim();
  return cut === '' ? null : cut;
}

const key = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();

/** One emoji-ish symbol: the first few code points of a short string, or the fallback. */
function emoji(text: string, fallback: string): string {
  const cut = [...text.replace(/\s+/g, '')].slice(0, 4).join('');
  // Letters and digits are not an icon; a symbol is.
  return cut === '' || /[\p{L}\p{N}<>]/u.test(cut) ? fallback : cut;
}

interface Built {
  id: string;
  name: string;
  fields: Array<{ id: string; name: string; type: FieldType }>;
}

/** The first field of `c` a view can use as its `key` field, if any. */
function viewField(c: Built, key: ViewFieldKey): string | null {
  return c.fields.find((f) => fitsViewField(key, f.type))?.id ?? null;
}

/**
 * A list's view and the fields it needs, from the collection's own fields: a view whose field the
 * collection lacks (a board without a select field) stays a plain list.
 */
function listView(
  view: ListView | undefined,
  c: Built,
  addScreenId: string | null,
): Record<string, unknown> {
  const needs: Partial<Record<ListView, ViewFieldKey>> = {
    board: 'groupFieldId',
    calendar: 'dateFieldId',
    gallery: 'imageFieldId',
  };
  if (!view || view === 'list') return {};
  const key = needs[view];
  if (!key) return { view };
  const fieldId = viewField(c, key);
  if (!fieldId) return {};
  return { view, [key]: fieldId, ...(view === 'calendar' ? { addScreenId } : {}) };
}

function singular(name: string): string {
  if (/ies$/i.test(name)) return `${name.slice(0, -3)}y`;
  if (/(ss|us)$/i.test(name)) return name;
  if (/s$/i.test(name)) return name.slice(0, -1);
  return name;
}

/**
 * A full definition from a blueprint, deterministically (ids from `newId`). Everything is clamped
 * to BLUEPRINT_LIMITS and LIMITS; a screen's component that names no known collection or field is
 * left out, a button on an unknown screen too. The result always has at least one screen and
 * passes `appDefinitionSchema` and the publish check.
 */
export function expandBlueprint(blueprint: Blueprint, newId: IdFactory): AppDefinition {
  const preset: ThemePreset = THEME_PRESETS.includes(blueprint.theme.preset)
    ? blueprint.theme.preset
    : 'meadow';
  const title = clean(blueprint.title, LIMITS.titleLength) ?? 'My app';

  // Collections and fields, unique by name.
  const collections: AppDefinition['collections'] = [];
  const links: FieldLinks = new Map();
  const built: Built[] = [];
  const byName = new Map<string, Built>();
  for (const given of blueprint.collections) {
    if (collections.length >= BLUEPRINT_LIMITS.collections) break;
    const collectionName = clean(given.name, LIMITS.nameLength);
    if (!collectionName || byName.has(key(collectionName))) continue;
    const fields: AppDefinition['collections'][number]['fields'] = [];
    const seen = new Set<string>();
    const sourceIndex: number[] = [];
    given.fields.forEach((f, index) => {
      if (fields.length >= BLUEPRINT_LIMITS.fieldsPerCollection) return;
      const fieldName = clean(f.name, LIMITS.nameLength);
      if (!fieldName || seen.has(key(fieldName))) return;
      seen.add(key(fieldName));
      const options =
        f.type === 'select' || f.type === 'multiChoice'
          ? [
              ...new Set(
                f.choices
                  .map((c) => clean(c, LIMITS.choiceLength))
                  .filter((c): c is string => c !== null),
              ),
            ].slice(0, BLUEPRINT_LIMITS.choices)
          : [];
      const id = newId();
      fields.push({
        id,
        name: fieldName,
        type: f.type,
        required: COMPUTED_FIELD_TYPES.includes(f.type) ? false : f.required,
        default: null,
        options,
      });
      sourceIndex.push(index);
      if (f.type === 'relation' || f.type === 'rollup' || f.type === 'formula') links.set(id, f);
    });
    if (fields.length === 0) {
      fields.push({
        id: newId(),
        name: 'Name',
        type: 'text',
        required: true,
        default: null,
        options: [],
      });
      sourceIndex.push(0);
    }
    const records: AppDefinition['collections'][number]['records'] = [];
    for (const sample of given.samples.slice(0, BLUEPRINT_LIMITS.samples)) {
      const values: Record<string, FieldValue> = {};
      let ok = true;
      fields.forEach((field, i) => {
        // Worked out, links to records by ids, or bytes: never a sample's value.
        if (!TYPED_FIELD_TYPES.includes(field.type)) return;
        const raw = sample[sourceIndex[i] ?? -1];
        const coerced = coerceFieldValue(field, raw);
        if (coerced.ok) values[field.id] = coerced.value;
        else ok = false;
      });
      // A sample that does not fit its fields is left out rather than stored half right.
      if (ok && Object.values(values).some((v) => v !== null && v !== false)) {
        records.push({ id: newId(), values });
      }
    }
    const id = newId();
    collections.push({
      id,
      name: collectionName,
      fields,
      records,
      sharing: 'private',
      recordRule: 'anyone',
    });
    byName.set(key(collectionName), { id, name: collectionName, fields: [] });
  }
  const collectionNamed = (text: string): Built | undefined =>
    byName.get(key(text)) ?? byName.get(key(`${text}s`)) ?? byName.get(key(singular(text)));
  // Relations, rollups and formulas once every collection is there: one that can't be set up
  // (a collection no one named, a formula that doesn't check) is left out.
  linkFields(collections, links, (text) => collectionNamed(text)?.id);
  for (const collection of collections) {
    const entry = byName.get(key(collection.name)) as Built;
    entry.fields = collection.fields.map((f) => ({ id: f.id, name: f.name, type: f.type }));
    built.push(entry);
  }
  const fieldNamed = (c: Built | undefined, text: string) =>
    c?.fields.find((f) => key(f.name) === key(text));

  // Screens first get ids and titles, so lists, buttons and actions can point at each other.
  const planned = blueprint.screens.slice(0, BLUEPRINT_LIMITS.screens).map((s) => ({
    given: s,
    id: newId(),
    title: clean(s.title, LIMITS.screenTitleLength) ?? 'Screen',
    collection: collectionNamed(s.collection),
  }));
  if (planned.length === 0) {
    planned.push({
      given: {
        title: 'Home',
        icon: '🏠',
        kind: built.length > 0 ? 'list' : 'text',
        collection: built[0]?.name ?? '',
        text: clean(blueprint.description, 200) ?? '',
        components: [],
      },
      id: newId(),
      title: 'Home',
      collection: built[0],
    });
  }
  const screenFor = (kind: BlueprintScreenKind, c: Built) =>
    planned.find((s) => s.given.kind === kind && s.collection?.id === c.id);
  const screenTitled = (text: string) => planned.find((s) => key(s.title) === key(text));

  const actions: Action[] = [];
  const makeAction = (label: string, steps: Action['steps']): Action => {
    const action: Action = {
      id: newId(),
      name: clean(label, LIMITS.nameLength) ?? 'Action',
      steps,
    };
    actions.push(action);
    return action;
  };
  const component = <T extends keyof typeof COMPONENT_PROPS>(
    type: T,
    props: z.input<(typeof COMPONENT_PROPS)[T]>,
  ): Component => ({ id: newId(), type, props: COMPONENT_PROPS[type].parse(props) }) as Component;

  const screens: Screen[] = planned.map(({ given, id, title: screenTitle, collection: c }) => {
    const components: Component[] = [component('heading', { text: screenTitle, level: 1 })];
    const intro = clean(given.text, BLUEPRINT_LIMITS.textLength);
    if (intro) components.push(component('text', { markdown: escapeMarkdown(intro) }));
    if (c) {
      const first = c.fields[0];
      const second = c.fields[1];
      const detail = screenFor('detail', c);
      const form = screenFor('form', c);
      if (given.kind === 'list') {
        components.push(
          component('list', {
            collectionId: c.id,
            titleFieldId: first?.id ?? null,
            subtitleFieldId: second?.id ?? null,
            emptyText: `No ${c.name.toLowerCase()} yet.`,
            detailScreenId: detail?.id ?? null,
            ...listView(given.view, c, form?.id ?? null),
          }),
        );
        if (form && form.id !== id) {
          const label = clean(`Add ${singular(c.name).toLowerCase()}`, 60) ?? 'Add';
          const open = makeAction(`Open ${form.title}`, [step('navigate', { screenId: form.id })]);
          components.push(component('button', { label, actionId: open.id }));
        }
      } else if (given.kind === 'detail') {
        components.push(component('detail', { fieldIds: c.fields.map((f) => f.id) }));
      } else if (given.kind === 'form') {
        const after = makeAction(`After saving in ${screenTitle}`, [
          step('toast', { message: 'Saved' }),
          step('back', {}),
        ]);
        components.push(
          component('form', {
            collectionId: c.id,
            mode: 'create',
            fieldIds: c.fields.map((f) => f.id),
            actionId: after.id,
          }),
        );
      } else if (given.kind === 'dashboard') {
        components.push(
          component('stat', { label: clean(c.name, 60) ?? 'Total', collectionId: c.id }),
        );
      }
    }
    for (const extra of given.components) {
      if (components.length >= BLUEPRINT_LIMITS.components) break;
      const made = extraComponent(extra, collectionNamed(extra.collection) ?? c, fieldNamed);
      if (made) components.push(component(made.type, made.props as never));
    }
    return {
      id,
      title: screenTitle,
      icon: emoji(given.icon, '📄'),
      components: components.slice(0, LIMITS.componentsPerScreen),
    };
  });

  // Buttons the blueprint asks for: on a known screen, opening a known screen or saying something.
  for (const a of blueprint.actions.slice(0, BLUEPRINT_LIMITS.actions)) {
    const on = screenTitled(a.screen);
    const label = clean(a.label, 60);
    if (!on || !label) continue;
    const screen = screens.find((s) => s.id === on.id);
    if (!screen || screen.components.length >= BLUEPRINT_LIMITS.components + 3) continue;
    let action: Action | null = null;
    if (a.kind === 'open') {
      const target = screenTitled(a.target);
      if (target) action = makeAction(label, [step('navigate', { screenId: target.id })]);
    } else {
      const message = clean(a.message, 200);
      if (message)
        action = makeAction(label, [step('toast', { message: escapeTemplate(message) })]);
    }
    if (action) screen.components.push(component('button', { label, actionId: action.id }));
  }

  return {
    schemaVersion: SCHEMA_VERSION,
    meta: {
      title,
      description: clean(blueprint.description, LIMITS.descriptionLength) ?? '',
      icon: {
        kind: 'emoji',
        emoji: emoji(blueprint.icon, DEFAULT_APP_ICON.emoji),
        background: PRESET_TOKENS[preset].light.primary,
      },
      tags: [],
    },
    theme: themeSchema.parse({
      preset,
      custom: HEX.test(blueprint.theme.accent) ? { accent: blueprint.theme.accent } : {},
    }),
    screens,
    collections,
    actions: actions.slice(0, LIMITS.actions),
    aiActions: [],
    reminders: expandReminders(blueprint.reminders ?? [], newId, (c, f) => {
      const collection = collectionNamed(c);
      const field = fieldNamed(collection, f);
      return collection && field && DATE_TYPES.has(field.type)
        ? { collectionId: collection.id, fieldId: field.id }
        : null;
    }),
  };

  function step<T extends 'navigate' | 'toast' | 'back'>(
    type: T,
    props: Record<string, unknown>,
  ): Action['steps'][number] {
    return { id: newId(), type, props } as Action['steps'][number];
  }
}

type Extra = z.infer<typeof blueprintComponentSchema>;

function extraComponent(
  extra: Extra,
  c: Built | undefined,
  fieldNamed: (c: Built | undefined, text: string) => Built['fields'][number] | undefined,
): { type: keyof typeof COMPONENT_PROPS; props: Record<string, unknown> } | null {
  const label = clean(extra.text, 60);
  const field = fieldNamed(c, extra.field);
  switch (extra.type) {
    case 'heading':
      return label ? { type: 'heading', props: { text: label, level: 2 } } : null;
    case 'text': {
      const markdown = clean(extra.text, BLUEPRINT_LIMITS.textLength);
      return markdown ? { type: 'text', props: { markdown: escapeMarkdown(markdown) } } : null;
    }
    case 'divider':
      return { type: 'divider', props: {} };
    case 'counter':
      return { type: 'counter', props: { label: label ?? 'Count' } };
    case 'timer':
      return { type: 'timer', props: { label: label ?? 'Timer' } };
    case 'stat': {
      if (!c) return null;
      const numeric = field !== undefined && NUMERIC_FIELD_TYPES.includes(field.type);
      return {
        type: 'stat',
        props: {
          label: label ?? c.name,
          collectionId: c.id,
          aggregate: numeric ? 'sum' : 'count',
          fieldId: numeric ? field.id : null,
        },
      };
    }
    case 'chart': {
      if (!c) return null;
      const labelField =
        field && field.type !== 'number'
          ? field
          : c.fields.find((f) => f.type === 'select' || f.type === 'text');
      return labelField
        ? {
            type: 'chart',
            props: { kind: 'bar', collectionId: c.id, labelFieldId: labelField.id },
          }
        : null;
    }
    case 'checklist': {
      if (!c) return null;
      const titleField = c.fields.find((f) => f.type === 'text') ?? c.fields[0];
      const check = c.fields.find((f) => f.type === 'boolean');
      return check
        ? {
            type: 'checklist',
            props: {
              collectionId: c.id,
              titleFieldId: titleField?.id ?? null,
              checkFieldId: check.id,
            },
          }
        : null;
    }
  }
}

/**
 * A model's words are shown as written: every character the runtime's markdown gives a meaning
 * (packages/runtime/src/markdown.ts) is escaped, so no link, image or emphasis comes through.
 */
function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]()#-]/g, (ch) => `\\${ch}`);
}

/** A toast message is a template; a model's `{{…}}` is shown as written, never resolved. */
function escapeTemplate(text: string): string {
  return text.replace(/\{\{/g, '{ {').replace(/\}\}/g, '} }');
}

const DATE_TYPES: ReadonlySet<FieldType> = new Set(['date', 'dateTime']);
const EVERY_DAY: Weekday[] = [1, 2, 3, 4, 5, 6, 7];

/**
 * The blueprint's reminders as the definition holds them. One that can't be set up as written (a
 * time that is no time, a date field the app doesn't have) is left out: a reminder at a time
 * nobody asked for would be worse than none.
 */
function expandReminders(
  given: ReadonlyArray<z.infer<typeof blueprintReminderSchema>>,
  newId: IdFactory,
  dateField: (
    collection: string,
    field: string,
  ) => { collectionId: string; fieldId: string } | null,
): Reminder[] {
  const reminders: Reminder[] = [];
  for (const r of given) {
    if (reminders.length >= BLUEPRINT_LIMITS.reminders) break;
    const title = clean(r.title, REMINDER_LIMITS.titleLength);
    const time = r.time.trim().padStart(5, '0');
    if (!title || !timeOfDaySchema.safeParse(time).success) continue;
    const body = clean(r.text, REMINDER_LIMITS.bodyLength) ?? '';
    let schedule: ReminderSchedule;
    if (r.when === 'onDate') {
      const at = dateField(r.collection, r.field);
      const days = Math.round(r.daysBefore);
      if (!at || !Number.isFinite(days) || Math.abs(days) > REMINDER_LIMITS.maxDaysOffset) continue;
      schedule = { kind: 'recordDay', ...at, days: days === 0 ? 0 : -days, time };
    } else {
      const weekday = Math.round(r.weekday);
      const days: Weekday[] =
        r.when === 'everyDay'
          ? EVERY_DAY
          : r.when === 'weekdays'
            ? EVERY_DAY.slice(0, 5)
            : [(weekday >= 1 && weekday <= 7 ? weekday : 1) as Weekday];
      schedule = { kind: 'weekly', days, time };
    }
    reminders.push({ id: newId(), title, body, schedule });
  }
  return reminders;
}

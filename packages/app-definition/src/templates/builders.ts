import { createId } from '@pipit/protocol';
import type { z } from 'zod';
import {
  type Action,
  type AiAction,
  type AppDefinition,
  type Collection,
  type Component,
  COMPONENT_PROPS,
  type ComponentType,
  type Field,
  type FieldType,
  type Screen,
  type Step,
  STEP_PROPS,
  type StepType,
} from '../schema/definition';
import { SCHEMA_VERSION } from '../schema/limits';
import { FIELD_SETTINGS, type FieldSetting } from '../schema/field-types';
import type { CollectionRecordRule } from '../schema/sharing';
import type { AppIcon } from '../schema/meta';
import { type Theme, type ThemePreset, themeSchema } from '../schema/theme';
import type { Reminder } from '../schema/reminder';

/*
 * Small helpers that keep each template readable. Every id comes from `createId`: a template is
 * written once into a brand-new document by the device that creates the app, so fresh random ids
 * cost nothing and keep two apps made from one template from sharing entity ids (which would
 * otherwise meet in remixes, imports and copied components). The one exception is the `/demo1`
 * showcase, whose ids are names (`IdsByName`).
 */

/** A template's icon: the emoji form of the meta icon (an uploaded image needs an upload). */
export type EmojiIcon = Extract<AppIcon, { kind: 'emoji' }>;

type Value = string | number | boolean | null;

type FieldSpec = {
  name: string;
  type: FieldType;
  required?: boolean;
  default?: Value;
  options?: string[];
} & Partial<Pick<Field, FieldSetting>>;

function fieldOf(id: string, spec: FieldSpec): Field {
  return {
    id,
    name: spec.name,
    type: spec.type,
    required: spec.required ?? false,
    default: spec.default ?? null,
    options: spec.options ?? [],
    ...Object.fromEntries(
      FIELD_SETTINGS.filter((key) => spec[key] !== undefined).map((key) => [key, spec[key]]),
    ),
  };
}

/** Fresh ids for things referenced before they are built (screens, mostly), by name. */
export function ids<K extends string>(...keys: K[]): Record<K, string> {
  return Object.fromEntries(keys.map((key) => [key, createId()])) as Record<K, string>;
}

export function field(
  name: string,
  type: FieldType,
  more: Omit<FieldSpec, 'name' | 'type'> = {},
): FieldSpec {
  return { name, type, ...more };
}

export interface BuiltCollection<K extends string> {
  id: string;
  /** Field ids by the template's own key. */
  f: Record<K, string>;
  collection: Collection;
}

/** Ids chosen by the caller instead of fresh ones (an app whose ids must never change). */
export interface FixedCollectionIds<K extends string> {
  id: string;
  fields: Record<K, string>;
  /** The creator records' ids, in the order of the records. */
  records: string[];
}

/**
 * A collection whose fields (and creator records) are written by key rather than by id. Its ids
 * are fresh unless `fixed` gives them.
 */
export function collection<K extends string>(
  name: string,
  specs: Record<K, FieldSpec>,
  records: Array<Partial<Record<K, Value>>> = [],
  fixed?: FixedCollectionIds<K>,
): BuiltCollection<K> {
  const id = fixed?.id ?? createId();
  const keys = Object.keys(specs) as K[];
  const f = Object.fromEntries(
    keys.map((key) => [key, fixed?.fields[key] ?? createId()]),
  ) as Record<K, string>;
  const fields: Field[] = keys.map((key) => fieldOf(f[key], specs[key]));
  return {
    id,
    f,
    collection: {
      id,
      name,
      fields,
      records: records.map((values, index) => ({
        id: fixed?.records[index] ?? createId(),
        values: Object.fromEntries(
          (Object.entries(values) as Array<[K, Value | undefined]>)
            .filter((entry): entry is [K, Value] => entry[1] !== undefined)
            .map(([key, value]) => [f[key], value]),
        ),
      })),
      sharing: 'private',
      recordRule: 'anyone',
    },
  };
}

/**
 * The collection with more fields after its own: the ones that need another collection built first
 * (a rollup over the relation of a collection that links to this one).
 */
export function withFields<K extends string, L extends string>(
  built: BuiltCollection<K>,
  specs: Record<L, FieldSpec>,
): BuiltCollection<K | L> {
  const keys = Object.keys(specs) as L[];
  const f = { ...built.f } as Record<K | L, string>;
  for (const key of keys) f[key] = createId();
  const more = keys.map((key) => fieldOf(f[key], specs[key]));
  return {
    ...built,
    f,
    collection: { ...built.collection, fields: [...built.collection.fields, ...more] },
  };
}

/**
 * The same collection with the records visitors add kept in a space they share with the people
 * they invite; `recordRule` says who there may change a record.
 */
export function sharedInSpace<K extends string>(
  built: BuiltCollection<K>,
  recordRule: CollectionRecordRule,
): BuiltCollection<K> {
  return { ...built, collection: { ...built.collection, sharing: 'space', recordRule } };
}

type PropsInput<T extends ComponentType> = z.input<(typeof COMPONENT_PROPS)[T]>;

/** A component with every property filled in (the schema's defaults for those not given). */
export function component<T extends ComponentType>(type: T, props: PropsInput<T>): Component {
  return { id: createId(), type, props: COMPONENT_PROPS[type].parse(props) } as Component;
}

export const heading = (text: string, level: 1 | 2 | 3 = 2) =>
  component('heading', { text, level });
export const text = (markdown: string) => component('text', { markdown });
export const divider = () => component('divider', {});
export const button = (label: string, action: Action, style: 'primary' | 'secondary' = 'primary') =>
  component('button', { label, actionId: action.id, style });

type StepInput<T extends StepType> = z.input<(typeof STEP_PROPS)[T]>;

export function step<T extends StepType>(type: T, props: StepInput<T>): Step {
  return { id: createId(), type, props: STEP_PROPS[type].parse(props) } as Step;
}

export const navigate = (screenId: string) => step('navigate', { screenId });
export const back = () => step('back', {});
export const toast = (message: string) => step('toast', { message });

export function action(name: string, ...steps: Step[]): Action {
  return { id: createId(), name, steps };
}

/** `{{record.<fieldId>}}`: a step value taken from the current record. */
export const fromRecord = (fieldId: string) => `{{record.${fieldId}}}`;

export function screen(id: string, title: string, icon: string, components: Component[]): Screen {
  return { id, title, icon, components };
}

/** Ids by name instead of fresh ones: an app whose ids must never change (the showcase). */
export type IdsByName = (name: string) => string;

/** A component with the id `id` gives its name; without `id`, as it is (a fresh id). */
export function namedComponent(
  id: IdsByName | undefined,
  name: string,
  built: Component,
): Component {
  return id ? { ...built, id: id(name) } : built;
}

/** An action; with `id`, it and its steps take the ids of `<name>`, `<name>-1`, `<name>-2`… */
export function namedAction(
  id: IdsByName | undefined,
  name: string,
  label: string,
  ...steps: Step[]
): Action {
  const built = action(label, ...steps);
  if (!id) return built;
  return {
    ...built,
    id: id(name),
    steps: built.steps.map((s, index) => ({ ...s, id: id(`${name}-${index + 1}`) })),
  };
}

type ListInput = Omit<PropsInput<'list'>, 'collectionId' | 'detailScreenId'>;

/** How the screens and actions of `recordScreens` speak of one record. */
export interface RecordWords {
  /** 'book': "Edit this book", "Edit book", "After editing a book". */
  noun: string;
  /** 'an' before a noun that starts with a vowel sound ("After adding an expense"). */
  article?: 'a' | 'an';
  /** 'Remove' ("Remove book", "Book removed") or 'Delete' ("Delete recipe", "Recipe deleted"). */
  remove: 'Remove' | 'Delete';
  /** The remove button's label, if not the action's name. */
  removeLabel?: string;
  /** The add screen's title, and its heading unless `addHeading` says. */
  addTitle: string;
  addHeading?: string;
  /** The add form's button, and the toast once a record is added. */
  submit: string;
  added: string;
  /** The name of the action that opens the add form, if not "Open the add-<noun> form". */
  opener?: string;
  /** The name of the action run after adding, if not "After adding a <noun>". */
  afterAdding?: string;
}

/** The words of a list's items (a packing list's, a shopping list's). */
export const LIST_ITEM: RecordWords = {
  noun: 'item',
  article: 'an',
  remove: 'Remove',
  removeLabel: 'Remove from the list',
  addTitle: 'Add item',
  addHeading: 'Add an item',
  submit: 'Add to list',
  added: 'Added to the list',
};

/** What a template says about the screens of one collection's records (see `recordScreens`). */
export interface RecordScreensSpec extends RecordWords {
  /** The detail screen a list opens, the add form's and the edit form's. */
  screens: { detail: string; add: string; edit: string };
  /** The fields the detail screen shows, and the edit form edits unless `editFields` says. */
  fields: string[];
  addFields: string[];
  editFields?: string[];
  /** A line of advice above a form. */
  addHint?: string;
  editHint?: string;
  /** Components under the add form. */
  underAddForm?: Component[];
  /**
   * Ids by name (`go-add-<noun>`, `<noun>-detail`, `add-<noun>-form`…); fresh ones without. The
   * showcase's ids are these names: never change one.
   */
  id?: IdsByName;
  /** False: the add and edit screens open without a level-1 heading. */
  headings?: boolean;
}

/** A collection's record screens and the actions between them: a template places each piece. */
export interface RecordScreens {
  goAdd: Action;
  goEdit: Action;
  remove: Action;
  afterAdd: Action;
  afterEdit: Action;
  /** A list of the collection whose items open the detail screen. */
  list(props: ListInput): Component;
  /** The detail screen: the record's fields, then `below`. */
  detailScreen(title: string, icon: string, below: Component[]): Screen;
  editButton(): Component;
  removeButton(): Component;
  addScreen: Screen;
  editScreen: Screen;
}

/**
 * The screens most collections of a template have besides their lists: a record's detail with
 * Edit and Remove (or Delete), a form that adds one and a form that edits it, with the actions
 * that go from one to the other, named after the record ("Edit this book", "After adding a book").
 */
export function recordScreens(collection: { id: string }, spec: RecordScreensSpec): RecordScreens {
  const { noun, screens, id } = spec;
  const aNoun = `${spec.article ?? 'a'} ${noun}`;
  const removed = spec.remove === 'Remove' ? 'removed' : 'deleted';
  const removeKey = spec.remove.toLowerCase();
  const title = (name: string, words: string) =>
    spec.headings === false ? [] : [namedComponent(id, name, heading(words, 1))];
  const hint = (name: string, words: string | undefined) =>
    words === undefined ? [] : [namedComponent(id, name, text(words))];
  const form = (
    name: string,
    mode: 'create' | 'edit',
    fieldIds: string[],
    submitLabel: string,
    after: Action,
  ) =>
    namedComponent(
      id,
      name,
      component('form', {
        collectionId: collection.id,
        mode,
        fieldIds,
        submitLabel,
        actionId: after.id,
      }),
    );

  const goAdd = namedAction(
    id,
    `go-add-${noun}`,
    spec.opener ?? `Open the add-${noun} form`,
    navigate(screens.add),
  );
  const goEdit = namedAction(id, `go-edit-${noun}`, `Edit this ${noun}`, navigate(screens.edit));
  const remove = namedAction(
    id,
    `${removeKey}-${noun}`,
    `${spec.remove} ${noun}`,
    step('deleteRecord', {}),
    toast(`${noun.charAt(0).toUpperCase()}${noun.slice(1)} ${removed}`),
    back(),
  );
  const afterAdd = namedAction(
    id,
    `after-add-${noun}`,
    spec.afterAdding ?? `After adding ${aNoun}`,
    toast(spec.added),
    back(),
  );
  const afterEdit = namedAction(
    id,
    `after-edit-${noun}`,
    `After editing ${aNoun}`,
    toast('Changes saved'),
    back(),
  );

  return {
    goAdd,
    goEdit,
    remove,
    afterAdd,
    afterEdit,
    list: (props) =>
      component('list', { ...props, collectionId: collection.id, detailScreenId: screens.detail }),
    detailScreen: (screenTitle, icon, below) =>
      screen(screens.detail, screenTitle, icon, [
        namedComponent(id, `${noun}-detail`, component('detail', { fieldIds: spec.fields })),
        ...below,
      ]),
    editButton: () => namedComponent(id, `${noun}-edit`, button('Edit', goEdit, 'secondary')),
    removeButton: () =>
      namedComponent(
        id,
        `${noun}-${removeKey}`,
        button(spec.removeLabel ?? remove.name, remove, 'secondary'),
      ),
    addScreen: screen(screens.add, spec.addTitle, '➕', [
      ...title(`add-${noun}-title`, spec.addHeading ?? spec.addTitle),
      ...hint(`add-${noun}-hint`, spec.addHint),
      form(`add-${noun}-form`, 'create', spec.addFields, spec.submit, afterAdd),
      ...(spec.underAddForm ?? []),
    ]),
    editScreen: screen(screens.edit, `Edit ${noun}`, '✏️', [
      ...title(`edit-${noun}-title`, `Edit ${noun}`),
      ...hint(`edit-${noun}-hint`, spec.editHint),
      form(`edit-${noun}-form`, 'edit', spec.editFields ?? spec.fields, 'Save changes', afterEdit),
    ]),
  };
}

export interface DefinitionParts {
  title: string;
  description: string;
  icon: EmojiIcon;
  tags: string[];
  preset: ThemePreset;
  theme?: Partial<Omit<Theme, 'preset'>>;
  screens: Screen[];
  collections: Array<BuiltCollection<string>>;
  actions: Action[];
  aiActions?: AiAction[];
  reminders?: Reminder[];
}

export function definition(parts: DefinitionParts): AppDefinition {
  return {
    schemaVersion: SCHEMA_VERSION,
    meta: {
      title: parts.title,
      description: parts.description,
      icon: { ...parts.icon },
      tags: [...parts.tags],
    },
    theme: themeSchema.parse({ preset: parts.preset, ...parts.theme }),
    screens: parts.screens,
    collections: parts.collections.map((c) => c.collection),
    actions: parts.actions,
    aiActions: parts.aiActions ?? [],
    reminders: parts.reminders ?? [],
  };
}

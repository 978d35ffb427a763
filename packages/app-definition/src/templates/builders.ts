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
import type { CollectionRecordRule } from '../schema/sharing';
import type { AppIcon } from '../schema/meta';
import { type Theme, type ThemePreset, themeSchema } from '../schema/theme';

/*
 * Small helpers that keep each template readable. Every id comes from `createId`: a template is
 * written once into a brand-new document by the device that creates the app, so fresh random ids
 * cost nothing and keep two apps made from one template from sharing entity ids (which would
 * otherwise meet in remixes, imports and copied components).
 */

/** A template's icon: the emoji form of the meta icon (an uploaded image needs an upload). */
export type EmojiIcon = Extract<AppIcon, { kind: 'emoji' }>;

type Value = string | number | boolean | null;

interface FieldSpec {
  name: string;
  type: FieldType;
  required?: boolean;
  default?: Value;
  options?: string[];
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
  const fields: Field[] = keys.map((key) => {
    const spec = specs[key];
    return {
      id: f[key],
      name: spec.name,
      type: spec.type,
      required: spec.required ?? false,
      default: spec.default ?? null,
      options: spec.options ?? [],
    };
  });
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
  };
}

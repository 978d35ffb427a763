import * as Y from 'yjs';
import type { z } from 'zod';
import { type AppDefinition, appDefinitionSchema } from '../schema/definition';
import {
  appMap,
  metaMap,
  type Ordered,
  ordered,
  orderedByParent,
  type Table,
  TABLES,
  themeMap,
} from '../document/document';
import { migrateDefinition } from '../schema/migrations';
import { DefinitionError } from '../schema/edit-rules';
import { referenceProblems } from './publish-references';
import { checkFormula, compileCollectionFormulas } from '../formula/compile';
import { fieldsForFormulas, rollupSource } from '../schema/relations';
import { FIELD_SETTINGS } from '../schema/field-types';

/**
 * One problem that keeps a document from being published: a dotted path into the definition JSON,
 * a message for its creator, and the entity it is in (null for meta, theme and the whole app).
 */
export interface PublishProblem {
  path: string;
  message: string;
  entity: { table: Table; id: string } | null;
}

export type PublishCheck =
  { ok: true; definition: AppDefinition } | { ok: false; problems: PublishProblem[] };

/** A Y value as plain JSON: a map's entries, an array's items, anything else as it is. */
function plain(value: unknown): unknown {
  if (value instanceof Y.Map || value instanceof Y.Array) return value.toJSON() as unknown;
  if (value instanceof Y.AbstractType) return String(value.toJSON());
  return value;
}

/** An entity's own values, without the bookkeeping keys the document adds (order, parent). */
function values(entity: Y.Map<unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (entity.has(key)) out[key] = plain(entity.get(key));
  return out;
}

const children = (groups: Map<string, Ordered[]>, parent: string) => groups.get(parent) ?? [];

/**
 * The document's definition exactly as stored: entities in order and orphans (children of a
 * deleted parent) left out, as every reader does, but nothing salvaged, repaired or dropped — an
 * unknown component, a `javascript:` link or a dangling reference stays, for the checks to find.
 */
export function rawDefinition(doc: Y.Doc): Record<string, unknown> {
  const componentsOf = orderedByParent(doc, 'components');
  const fieldsOf = orderedByParent(doc, 'fields');
  const recordsOf = orderedByParent(doc, 'records');
  const stepsOf = orderedByParent(doc, 'steps');
  return {
    schemaVersion: appMap(doc).get('schemaVersion'),
    meta: plain(metaMap(doc)),
    theme: plain(themeMap(doc)),
    screens: ordered(doc, 'screens').map(({ id, entity }) => ({
      id,
      ...values(entity, ['title', 'icon']),
      components: children(componentsOf, id).map((c) => ({
        id: c.id,
        ...values(c.entity, ['type', 'props']),
      })),
    })),
    collections: ordered(doc, 'collections').map(({ id, entity }) => ({
      id,
      ...values(entity, ['name', 'sharing', 'recordRule']),
      fields: children(fieldsOf, id).map((f) => ({
        id: f.id,
        ...values(f.entity, ['name', 'type', 'required', 'default', 'options', ...FIELD_SETTINGS]),
      })),
      records: children(recordsOf, id).map((r) => ({ id: r.id, ...values(r.entity, ['values']) })),
    })),
    actions: ordered(doc, 'actions').map(({ id, entity }) => ({
      id,
      ...values(entity, ['name']),
      steps: children(stepsOf, id).map((s) => ({
        id: s.id,
        ...values(s.entity, ['type', 'props']),
      })),
    })),
    aiActions: ordered(doc, 'aiActions').map(({ id, entity }) => ({
      id,
      ...values(entity, ['name', 'prompt', 'output', 'target']),
    })),
    reminders: ordered(doc, 'reminders').map(({ id, entity }) => ({
      id,
      ...values(entity, ['title', 'body', 'schedule']),
    })),
  };
}

/** The tables a path walks through, by the key that holds each one's array. */
const PATH_TABLES = new Set<string>(TABLES);

/** The innermost entity a path points into (`screens.0.components.2.props.url` → that component). */
function entityAt(raw: unknown, path: ReadonlyArray<PropertyKey>): PublishProblem['entity'] {
  let node: unknown = raw;
  let found: PublishProblem['entity'] = null;
  for (let i = 0; i < path.length; i++) {
    const key = path[i];
    if (node === null || typeof node !== 'object') break;
    node = (node as Record<PropertyKey, unknown>)[key as string];
    const index = path[i + 1];
    if (typeof key === 'string' && PATH_TABLES.has(key) && typeof index === 'number') {
      const item = Array.isArray(node) ? (node[index] as { id?: unknown } | undefined) : undefined;
      if (typeof item?.id === 'string') found = { table: key as Table, id: item.id };
    }
  }
  return found;
}

/** zod's messages for structural mistakes, in the product's voice (the schema's own stay). */
function messageOf(issue: z.core.$ZodIssue, path: ReadonlyArray<PropertyKey>): string {
  const last = path.at(-1);
  if (issue.code === 'invalid_union' && last === 'type') {
    return path.includes('steps')
      ? 'This kind of step is not known. Remove it, or replace it with another step.'
      : 'This kind of component is not known. Remove it, or replace it with another component.';
  }
  if (issue.code === 'invalid_value' && 'values' in issue) {
    return `Choose one of: ${issue.values.map(String).join(', ')}.`;
  }
  if (issue.code === 'invalid_type') return 'This setting is missing or not of the right kind.';
  if (issue.code === 'unrecognized_keys') return 'This setting is not known here.';
  return issue.message;
}

const toPath = (path: ReadonlyArray<PropertyKey>) => path.map(String).join('.');

/**
 * What the server checks before it stores a published version (docs/product/app-definition.md,
 * validation.md): the document read raw (rawDefinition), brought forward to today's schema, parsed
 * strictly by appDefinitionSchema, and every reference checked. Either the definition to publish or
 * every problem found.
 */
export function checkForPublish(doc: Y.Doc): PublishCheck {
  const raw = rawDefinition(doc);
  if (raw.schemaVersion === undefined) {
    return {
      ok: false,
      problems: [
        {
          path: '',
          message: 'This app has no content yet. Open it in the editor first.',
          entity: null,
        },
      ],
    };
  }
  let migrated: unknown;
  try {
    migrated = migrateDefinition(raw);
  } catch (error) {
    if (!(error instanceof DefinitionError)) throw error;
    return {
      ok: false,
      problems: [{ path: 'schemaVersion', message: error.message, entity: null }],
    };
  }
  const parsed = appDefinitionSchema.safeParse(migrated);
  const problems: PublishProblem[] = (parsed.error?.issues ?? []).map((issue) => ({
    path: toPath(issue.path),
    message: messageOf(issue, issue.path),
    entity: entityAt(raw, issue.path),
  }));
  // Every problem at once, so the creator fixes them in one round; one message per path.
  const seen = new Set(problems.map((p) => p.path));
  for (const { path, segments, message } of referenceProblems(migrated)) {
    if (seen.has(path)) continue;
    seen.add(path);
    problems.push({ path, message, entity: entityAt(raw, segments) });
  }
  if (parsed.success) {
    const found = [
      ...relationProblems(parsed.data),
      ...formulaProblems(parsed.data),
      ...reminderProblems(parsed.data),
    ];
    for (const problem of found) {
      if (seen.has(problem.path)) continue;
      seen.add(problem.path);
      problems.push({ ...problem, entity: entityAt(raw, problem.path.split('.').map(segment)) });
    }
  }
  if (!parsed.success || problems.length > 0) return { ok: false, problems };
  return { ok: true, definition: parsed.data };
}

const segment = (part: string): string | number => (/^\d+$/.test(part) ? Number(part) : part);

/**
 * Relations whose collection is gone or lives elsewhere (a private collection linking a shared
 * one's records, or the other way round: the linked records would not be there for everyone who
 * sees the link), person fields outside a shared collection, and rollups that can't be worked out.
 */
function relationProblems(definition: AppDefinition): Array<Omit<PublishProblem, 'entity'>> {
  const problems: Array<Omit<PublishProblem, 'entity'>> = [];
  definition.collections.forEach((collection, c) => {
    collection.fields.forEach((field, f) => {
      const at = `collections.${c}.fields.${f}`;
      if (field.type === 'relation') {
        const target = definition.collections.find((other) => other.id === field.target);
        if (!target)
          problems.push({
            path: `${at}.target`,
            message: `Choose the collection ${field.name} links to.`,
          });
        else if (target.sharing !== collection.sharing)
          problems.push({
            path: `${at}.target`,
            message: `${field.name} links ${collection.name} to ${target.name}, but only one of them is shared in a space: share both or neither.`,
          });
      }
      // A person is picked among a space's people: in a collection kept in each visitor's own data
      // it could only ever name the visitor, which is a yes/no, not an assignment.
      if (field.type === 'person' && collection.sharing !== 'space')
        problems.push({
          path: `${at}.type`,
          message: `${field.name} picks someone in a shared space, but ${collection.name} isn’t shared: share it in a space, or give ${field.name} another type.`,
        });
      if (field.type === 'rollup') {
        const source = rollupSource(definition.collections, collection, field);
        if ('problem' in source) problems.push({ path: `${at}.through`, message: source.problem });
      }
    });
  });
  return problems;
}

/**
 * Formula fields that can't be worked out (a missing field, a loop, a type that doesn't fit):
 * published, they would show an error on every record, so the creator fixes them first.
 */
function formulaProblems(definition: AppDefinition): Array<Omit<PublishProblem, 'entity'>> {
  const problems: Array<Omit<PublishProblem, 'entity'>> = [];
  definition.collections.forEach((collection, c) => {
    if (!collection.fields.some((f) => f.type === 'formula')) return;
    const { errors } = compileCollectionFormulas(
      fieldsForFormulas(definition.collections, collection),
    );
    collection.fields.forEach((field, f) => {
      const error = errors[field.id];
      if (error)
        problems.push({
          path: `collections.${c}.fields.${f}.formula`,
          message: `The formula of ${field.name} can’t be worked out: ${error.message}`,
        });
    });
  });
  return problems;
}

/** The field types a reminder can count from: a day, or a day and a time. */
const DATE_TYPES: ReadonlySet<string> = new Set(['date', 'dateTime']);

/**
 * Reminders that could never fire as the creator meant: about a collection or field that is gone
 * (deleted after the reminder was set up), counting from a field that holds no date, or checking
 * a formula that can't be worked out or doesn't answer yes or no.
 */
function reminderProblems(definition: AppDefinition): Array<Omit<PublishProblem, 'entity'>> {
  const problems: Array<Omit<PublishProblem, 'entity'>> = [];
  definition.reminders.forEach(({ title, schedule }, r) => {
    if (schedule.kind === 'weekly') return;
    const at = `reminders.${r}.schedule`;
    const name = `Reminder “${title}”`;
    const collection = definition.collections.find((c) => c.id === schedule.collectionId);
    if (!collection) {
      problems.push({
        path: `${at}.collectionId`,
        message: `${name} is about a collection that no longer exists. Choose another one, or remove the reminder.`,
      });
      return;
    }
    if (schedule.kind === 'formula') {
      const check = checkFormula(
        schedule.formula,
        fieldsForFormulas(definition.collections, collection),
      );
      if (!check.ok)
        problems.push({
          path: `${at}.formula`,
          message: `The formula of reminder “${title}” can’t be worked out: ${check.error.message}`,
        });
      else if (check.type !== 'boolean')
        problems.push({
          path: `${at}.formula`,
          message: `The formula of reminder “${title}” must say yes or no for each record of ${collection.name}, like {Stock} < 3.`,
        });
      return;
    }
    const field = collection.fields.find((f) => f.id === schedule.fieldId);
    if (!field) {
      const elsewhere = definition.collections.some((c) =>
        c.fields.some((f) => f.id === schedule.fieldId),
      );
      problems.push({
        path: `${at}.fieldId`,
        message: elsewhere
          ? `${name} counts from a field of another collection. Choose one of ${collection.name}’s date fields.`
          : `${name} counts from a field that no longer exists. Choose one of ${collection.name}’s date fields, or remove the reminder.`,
      });
    } else if (!DATE_TYPES.has(field.type)) {
      problems.push({
        path: `${at}.fieldId`,
        message: `${name} counts from ${field.name}, which holds no date. Choose a date or date-and-time field.`,
      });
    }
  });
  return problems;
}

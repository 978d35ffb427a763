import { SCHEMA_VERSION } from './limits';
import { DefinitionError } from './edit-rules';

/**
 * Steps that bring a definition JSON from one schemaVersion to the next, keyed by the version they
 * start from. Version 1 is the first; when the schema changes, add `1: (d) => …` here and raise
 * SCHEMA_VERSION, and the document migration beside it. A step must give the next version's whole
 * shape, defaults filled in: the installed app runs a published version's migrated JSON without
 * parsing it again (client/platform/published-definition.ts).
 */
const DEFINITION_STEPS: Record<
  number,
  (definition: Record<string, unknown>) => Record<string, unknown>
> = {};

/**
 * A definition JSON (an export, a published version) brought forward to today's schemaVersion.
 * One made by a newer Pipit is refused: it may hold things this version would silently lose.
 */
export function migrateDefinition(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new DefinitionError('This is not a Pipit app definition.');
  }
  let definition = value as Record<string, unknown>;
  const version = definition.schemaVersion;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    throw new DefinitionError('This definition does not say which version of Pipit made it.');
  }
  if (version > SCHEMA_VERSION) {
    throw new DefinitionError(
      'This app was made with a newer version of Pipit. Update this server to open it.',
    );
  }
  for (let v = version; v < SCHEMA_VERSION; v++) {
    const step = DEFINITION_STEPS[v];
    if (!step) throw new DefinitionError(`No way to bring a version ${v} definition forward.`);
    definition = { ...step(definition), schemaVersion: v + 1 };
  }
  return withAddedLists(definition);
}

/**
 * Lists added to the definition after version 1 without a version of their own: absent means
 * none. Filled in here rather than by a version step because every version-1 document and
 * published copy stays readable as it is (no document migration), and the installed app, which
 * does not parse a published definition again, still finds an array.
 */
const ADDED_LISTS = ['reminders'] as const;

function withAddedLists(definition: Record<string, unknown>): Record<string, unknown> {
  const missing = ADDED_LISTS.filter((key) => definition[key] === undefined);
  if (missing.length === 0) return definition;
  return { ...definition, ...Object.fromEntries(missing.map((key) => [key, []])) };
}

import { type AppDefinition, migrateDefinition } from '@pipit/app-definition';
import type { PublishedApp } from '@pipit/protocol';

// Not @pipit/protocol's isJsonObject: importing it brings the report-redaction module into the
// installed app's first visit as a chunk of its own (its JavaScript is budgeted: docs/performance.md).
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The top level the runtime walks (a damaged copy is unreadable, not a crash). */
function hasDefinitionShape(value: unknown): boolean {
  if (!isObject(value) || !isObject(value.meta) || !isObject(value.theme)) return false;
  return (['screens', 'collections', 'actions', 'aiActions', 'reminders'] as const).every((key) =>
    Array.isArray(value[key]),
  );
}

const parsed = new WeakMap<PublishedApp, AppDefinition | null>();

/**
 * A published version's definition, brought forward to this client's schema version; null means
 * one this build cannot read (published by a newer Pipit). It is not parsed again here: the server
 * stored what the app schema gave back when it validated the version at publish time (every default
 * filled in), versions never change, and migrations produce the next version's full shape. Parsing
 * it would load all of classic zod and the whole definition schema on the installed app's page
 * (docs/performance.md); the runtime still renders any part it cannot use as a placeholder.
 */
export function readPublishedDefinition(app: PublishedApp): AppDefinition | null {
  if (parsed.has(app)) return parsed.get(app) ?? null;
  let definition: AppDefinition | null = null;
  if (app.definition !== null && app.definition !== undefined) {
    try {
      const migrated = migrateDefinition(app.definition);
      definition = hasDefinitionShape(migrated) ? (migrated as AppDefinition) : null;
    } catch {
      definition = null;
    }
  }
  parsed.set(app, definition);
  return definition;
}

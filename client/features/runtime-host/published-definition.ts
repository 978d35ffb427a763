import { type AppDefinition, appDefinitionSchema, migrateDefinition } from '@pipit/app-definition';
import type { PublishedApp } from '@pipit/protocol';

const parsed = new WeakMap<PublishedApp, AppDefinition | null>();

/**
 * A published version's definition, brought forward to this client's schema version. Versions were
 * validated when published; null means one this build cannot read (published by a newer Pipit).
 */
export function readPublishedDefinition(app: PublishedApp): AppDefinition | null {
  if (parsed.has(app)) return parsed.get(app) ?? null;
  let definition: AppDefinition | null = null;
  if (app.definition !== null && app.definition !== undefined) {
    const result = appDefinitionSchema.safeParse(migrateDefinition(app.definition));
    definition = result.success ? result.data : null;
  }
  parsed.set(app, definition);
  return definition;
}

import { type AppDefinition, appDefinitionSchema } from '../schema/definition';
import { migrateDefinition } from '../schema/migrations';
import { DefinitionError } from '../schema/edit-rules';
import type { ReadDefinition } from '../document/reader';
import { problemsInWords } from './problem-words';
import { NOT_A_PIPIT_FILE } from './zip';

/** Marks a file as a Pipit app export. */
export const EXPORT_FORMAT = 'pipit-app';

export function exportDefinition(definition: ReadDefinition | AppDefinition): string {
  return `${JSON.stringify({ format: EXPORT_FORMAT, definition }, null, 2)}\n`;
}

/** Where a definition is wrong, as `path: message` (for import errors and publish_invalid). */
export function definitionProblems(value: unknown): Array<{ path: string; message: string }> {
  const parsed = appDefinitionSchema.safeParse(value);
  return parsed.success
    ? []
    : parsed.error.issues.map((issue) => ({
        path: issue.path.map(String).join('.'),
        message: issue.message,
      }));
}

/**
 * Reads an exported file: JSON, the export format, an older schema brought forward, and every
 * rule of docs/product/app-definition.md. Anything wrong is a DefinitionError that says what and
 * where.
 */
export function parseImport(text: string): AppDefinition {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new DefinitionError(NOT_A_PIPIT_FILE);
  }
  const wrapper = json as { format?: unknown; definition?: unknown } | null;
  if (!wrapper || wrapper.format !== EXPORT_FORMAT) {
    throw new DefinitionError(NOT_A_PIPIT_FILE);
  }
  const migrated = migrateDefinition(wrapper.definition);
  const parsed = appDefinitionSchema.safeParse(migrated);
  if (!parsed.success) {
    // Where, in words a person knows: never `screens.0.components.2.props.text`.
    throw new DefinitionError(
      `This app can’t be imported. ${problemsInWords(migrated, parsed.error.issues)}`,
    );
  }
  return parsed.data;
}

import type { Field } from './definition';
import type { FieldValue } from './field-values';

/** A record as a template sees it: its fields (to find one by name) and its values by field id. */
export interface TemplateRecord {
  fields: ReadonlyArray<Pick<Field, 'id' | 'name'>>;
  values: Readonly<Record<string, FieldValue | undefined>>;
}

/** What `{{record.…}}`, `{{input.…}}` and `{{user.name}}` refer to; anything absent reads as ''. */
export interface TemplateScope {
  /** The current record (the one a list item opened). */
  record?: TemplateRecord | null;
  /** The values a form just submitted. */
  input?: TemplateRecord | null;
  user?: { name: string } | null;
}

export interface TemplateOptions {
  /** Applied to each substituted value (e.g. escaping markdown), never to the template's own text. */
  escape?: (value: string) => string;
  /**
   * The output is cut here (or at the template's own length, if longer): a short template must not
   * grow without bound from long values.
   */
  maxLength?: number;
}

const DEFAULT_MAX_LENGTH = 50_000;
/** Longer than any `record.<field name or id>` can be; longer is never looked up. */
const MAX_EXPRESSION_LENGTH = 200;

/** A field by id, else by name (case-insensitive, trimmed): the editor writes ids, people names. */
function findField(record: TemplateRecord, key: string): Pick<Field, 'id' | 'name'> | undefined {
  const byId = record.fields.find((f) => f.id === key);
  if (byId) return byId;
  const wanted = key.trim().toLowerCase();
  return record.fields.find((f) => f.name.trim().toLowerCase() === wanted);
}

function valueText(value: FieldValue | undefined): string {
  if (value === null || value === undefined) return '';
  return String(value);
}

/**
 * The value of one `{{…}}` expression: `record.<field>`, `input.<field>` or `user.name`. It is a
 * lookup in the scope's own data (fields by id or name, values with `Object.hasOwn`), never a
 * property access on an object, so `constructor`, `__proto__` and the like find nothing.
 */
export function resolveExpression(expression: string, scope: TemplateScope): string {
  const text = expression.trim();
  if (text.length === 0 || text.length > MAX_EXPRESSION_LENGTH) return '';
  const dot = text.indexOf('.');
  if (dot === -1) return '';
  const root = text.slice(0, dot).trim().toLowerCase();
  const key = text.slice(dot + 1).trim();
  if (root === 'user') {
    return key.toLowerCase() === 'name' && scope.user ? String(scope.user.name) : '';
  }
  const record = root === 'record' ? scope.record : root === 'input' ? scope.input : null;
  if (!record) return '';
  const field = findField(record, key);
  if (!field || !Object.hasOwn(record.values, field.id)) return '';
  return valueText(record.values[field.id]);
}

/**
 * Replaces each `{{record.field}}`, `{{input.field}}` and `{{user.name}}`
 * (docs/product/app-definition.md). A small scanner, no code evaluation: an unknown or malformed
 * expression becomes '', text outside `{{…}}` is kept as written, an unclosed `{{` stays literal,
 * and with `{{{{x}}` the innermost `{{` opens the expression. Linear in the template's length.
 */
export function renderTemplate(
  template: string,
  scope: TemplateScope,
  options: TemplateOptions = {},
): string {
  const escape = options.escape ?? ((value: string) => value);
  // Literal text is never cut: only what substitution adds is bounded.
  const maxLength = Math.max(options.maxLength ?? DEFAULT_MAX_LENGTH, template.length);
  let out = '';
  let i = 0;
  while (i < template.length && out.length < maxLength) {
    const open = template.indexOf('{{', i);
    if (open === -1) break;
    const close = template.indexOf('}}', open + 2);
    if (close === -1) break;
    // The last `{{` before the closing `}}`: any braces before it are text.
    const start = template.lastIndexOf('{{', close - 2);
    out += template.slice(i, start);
    out += escape(resolveExpression(template.slice(start + 2, close), scope));
    i = close + 2;
  }
  if (i < template.length) out += template.slice(i);
  return out.length > maxLength ? out.slice(0, maxLength) : out;
}

/** Whether a text has any `{{…}}` to fill in (so a plain text skips the scan). */
export function hasTemplate(text: string): boolean {
  const open = text.indexOf('{{');
  return open !== -1 && text.indexOf('}}', open + 2) !== -1;
}

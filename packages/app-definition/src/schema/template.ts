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
 * The binding an expression names, normalised (`record.<field>`, `input.<field>`, `user.name`), or
 * null when it names nothing a template can fill (no dot, another root, `user.` anything but name).
 * The client sends an AI run the value of each binding by this name, and the server fills its own
 * copy of the template by it (docs/product/ai.md).
 */
export function bindingName(expression: string): string | null {
  const text = expression.trim();
  if (text.length === 0 || text.length > MAX_EXPRESSION_LENGTH) return null;
  const dot = text.indexOf('.');
  if (dot === -1) return null;
  const root = text.slice(0, dot).trim().toLowerCase();
  const key = text.slice(dot + 1).trim();
  if (key.length === 0) return null;
  if (root === 'user') return key.toLowerCase() === 'name' ? 'user.name' : null;
  if (root !== 'record' && root !== 'input') return null;
  return `${root}.${key}`;
}

/**
 * The value of one `{{…}}` expression: `record.<field>`, `input.<field>` or `user.name`. It is a
 * lookup in the scope's own data (fields by id or name, values with `Object.hasOwn`), never a
 * property access on an object, so `constructor`, `__proto__` and the like find nothing.
 */
export function resolveExpression(expression: string, scope: TemplateScope): string {
  const name = bindingName(expression);
  if (name === null) return '';
  const dot = name.indexOf('.');
  const root = name.slice(0, dot);
  const key = name.slice(dot + 1);
  if (root === 'user') return scope.user ? String(scope.user.name) : '';
  const record = root === 'record' ? scope.record : scope.input;
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
  return fillTemplate(template, (expression) => resolveExpression(expression, scope), options);
}

/** Walks a template: its literal text and its `{{…}}` expressions, in order, until a callback says stop. */
function scanTemplate(
  template: string,
  onText: (text: string) => boolean,
  onExpression: (expression: string) => boolean,
): void {
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf('{{', i);
    if (open === -1) break;
    const close = template.indexOf('}}', open + 2);
    if (close === -1) break;
    // The last `{{` before the closing `}}`: any braces before it are text.
    const start = template.lastIndexOf('{{', close - 2);
    if (!onText(template.slice(i, start))) return;
    if (!onExpression(template.slice(start + 2, close))) return;
    i = close + 2;
  }
  if (i < template.length) onText(template.slice(i));
}

/**
 * A template with each expression replaced by what `resolve` returns for it: the scanner behind
 * `renderTemplate`, and behind the server's prompts, whose values come from a run's bindings.
 */
export function fillTemplate(
  template: string,
  resolve: (expression: string) => string,
  options: TemplateOptions = {},
): string {
  const escape = options.escape ?? ((value: string) => value);
  // Literal text is never cut: only what substitution adds is bounded.
  const maxLength = Math.max(options.maxLength ?? DEFAULT_MAX_LENGTH, template.length);
  let out = '';
  scanTemplate(
    template,
    (text) => {
      out += text;
      return true;
    },
    (expression) => {
      out += escape(resolve(expression));
      return out.length < maxLength;
    },
  );
  return out.length > maxLength ? out.slice(0, maxLength) : out;
}

/** The bindings a template uses, each once, in the order they first appear (see `bindingName`). */
export function templateBindings(template: string): string[] {
  const names = new Set<string>();
  scanTemplate(
    template,
    () => true,
    (expression) => {
      const name = bindingName(expression);
      if (name !== null) names.add(name);
      return true;
    },
  );
  return [...names];
}

/** Whether a text has any `{{…}}` to fill in (so a plain text skips the scan). */
export function hasTemplate(text: string): boolean {
  const open = text.indexOf('{{');
  return open !== -1 && text.indexOf('}}', open + 2) !== -1;
}

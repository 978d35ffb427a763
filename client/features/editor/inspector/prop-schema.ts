/**
 * Reads a component's or step's property schema (zod, from `COMPONENT_PROPS` / `STEP_PROPS`) into
 * the kind of input that edits it, so a new property gets an input without new editor code.
 */
import { isFieldListKey, type ReferenceTable, referenceTable } from '@pipit/app-definition';

/** The parts of a zod 4 schema the editor reads. */
export interface PropSchema {
  def: {
    type: string;
    innerType?: PropSchema;
    options?: PropSchema[];
    values?: unknown[];
    element?: PropSchema;
  };
  maxLength?: number | null;
  minLength?: number | null;
  minValue?: number | null;
  maxValue?: number | null;
  isInt?: boolean | null;
  options?: unknown[];
  safeParse(
    value: unknown,
  ):
    | { success: true; data: unknown }
    | { success: false; error: { issues: Array<{ message: string }> } };
}

export type PropKind =
  | { kind: 'text'; max: number | null; multiline: boolean; allowEmpty: boolean }
  | { kind: 'url' }
  | { kind: 'number'; min: number | null; max: number | null; integer: boolean }
  | { kind: 'boolean' }
  | { kind: 'choice'; options: Array<string | number> }
  | { kind: 'reference'; table: ReferenceTable; nullable: boolean }
  | { kind: 'field-list' }
  | { kind: 'filter' }
  | { kind: 'sort' }
  | { kind: 'template-values' }
  | { kind: 'unsupported' };

function unwrap(schema: PropSchema): { inner: PropSchema; nullable: boolean } {
  let inner = schema;
  let nullable = false;
  while (
    (inner.def.type === 'default' ||
      inner.def.type === 'nullable' ||
      inner.def.type === 'optional') &&
    inner.def.innerType
  ) {
    if (inner.def.type === 'nullable') nullable = true;
    inner = inner.def.innerType;
  }
  return { inner, nullable };
}

const MULTILINE_KEYS = new Set(['markdown']);

export function describeProp(key: string, schema: PropSchema): PropKind {
  const { inner, nullable } = unwrap(schema);
  const type = inner.def.type;
  const table = referenceTable(key);
  if (table && type === 'string') return { kind: 'reference', table, nullable };
  if (isFieldListKey(key) && type === 'array') return { kind: 'field-list' };
  if (key === 'filter' && type === 'object') return { kind: 'filter' };
  if (key === 'sort' && type === 'object') return { kind: 'sort' };
  if (key === 'values' && type === 'record') return { kind: 'template-values' };
  if (type === 'string') {
    return {
      kind: 'text',
      max: inner.maxLength ?? null,
      multiline: MULTILINE_KEYS.has(key),
      allowEmpty: !inner.minLength,
    };
  }
  if (type === 'number') {
    return {
      kind: 'number',
      min: inner.minValue ?? null,
      max: inner.maxValue ?? null,
      integer: Boolean(inner.isInt),
    };
  }
  if (type === 'boolean') return { kind: 'boolean' };
  if (type === 'enum') return { kind: 'choice', options: (inner.options ?? []) as string[] };
  if (type === 'union') {
    const options = inner.def.options ?? [];
    if (options.every((o) => o.def.type === 'literal')) {
      return {
        kind: 'choice',
        options: options.flatMap((o) => (o.def.values ?? []) as Array<string | number>),
      };
    }
    // A web address or nothing (`safeUrlSchema | ''`).
    if (options.some((o) => o.def.type === 'string')) return { kind: 'url' };
  }
  return { kind: 'unsupported' };
}

/** The first problem of a value against its schema, in words; null when it is valid. */
export function problemOf(schema: PropSchema, value: unknown, kind?: PropKind): string | null {
  if (kind?.kind === 'text' && typeof value === 'string') {
    if (kind.max !== null && value.length > kind.max) {
      return `Keep it to ${kind.max} characters (now ${value.length}).`;
    }
    if (!kind.allowEmpty && value.trim() === '') return 'This can’t be empty.';
  }
  if (kind?.kind === 'number' && typeof value === 'number') {
    const range = kind.min !== null && kind.max !== null ? ` from ${kind.min} to ${kind.max}` : '';
    if (
      !Number.isFinite(value) ||
      (kind.integer && !Number.isInteger(value)) ||
      (kind.min !== null && value < kind.min) ||
      (kind.max !== null && value > kind.max)
    ) {
      return `Use a ${kind.integer ? 'whole ' : ''}number${range}.`;
    }
  }
  return firstProblem(schema.safeParse(value));
}

/** The first issue of a zod parse result, in words; null when it succeeded. */
export function firstProblem(result: {
  success: boolean;
  error?: { issues: Array<{ message: string }> };
}): string | null {
  return result.success ? null : (result.error?.issues[0]?.message ?? 'This value can’t be used.');
}

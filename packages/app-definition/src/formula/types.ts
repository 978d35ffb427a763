/** The kinds of value a formula works with (README.md, "Types"). */
export const FORMULA_TYPES = ['number', 'text', 'boolean', 'date', 'dateTime', 'list'] as const;
export type FormulaType = (typeof FORMULA_TYPES)[number];

/**
 * A formula's result as the rest of the app sees it: a date as `YYYY-MM-DD`, a date and time as an
 * ISO instant in UTC, a list as its texts, and null when empty.
 */
export type FormulaValue = number | string | boolean | string[] | null;

/** One formula field's outcome: its value, or why it has none (a runtime error, in words). */
export type FormulaResult = { value: FormulaValue } | { error: string };

/** A problem in a formula's text, with the characters it is about: `source.slice(start, end)`. */
export interface FormulaError {
  message: string;
  start: number;
  end: number;
}

/** A field as formulas see it; `formula` is the text of a formula field. */
export interface FormulaField {
  id: string;
  name: string;
  type: string;
  formula?: string;
}

/**
 * Everything an evaluation may depend on besides the record: passed in, never read from the
 * device's clock or locale, so every device and the editor's preview compute the same values.
 */
export interface FormulaEnv {
  /** The calendar day TODAY() is, `YYYY-MM-DD`. */
  today: string;
  /** The instant NOW() is, in milliseconds since 1970 (UTC). */
  now: number;
  /** The IANA time zone a date and time's day is read in, like `Europe/Paris`. */
  timeZone: string;
}

/**
 * How big a formula may be: checked before anything else, so neither the parser's recursion nor
 * the evaluation's work can grow with what a creator (or a merged document) stored.
 */
export const FORMULA_LIMITS = {
  /** Characters of a formula's text. */
  sourceLength: 1_000,
  /** Brackets inside brackets: a group `( )` or a function's values `ROUND( )`. */
  depth: 32,
  /** Values, operators and function calls in the parsed formula. */
  nodes: 200,
} as const;

export type BinaryOperator =
  '+' | '-' | '*' | '/' | '%' | '&' | '=' | '!=' | '<' | '<=' | '>' | '>=' | 'and' | 'or';

/** Where a node stands in the formula's text: `source.slice(start, end)`. */
export interface Span {
  start: number;
  end: number;
}

/**
 * A parsed formula. Brackets leave no node of their own (the tree's shape holds them), the keyword
 * `not x` is the call `NOT(x)`, and a known function's name is upper case whatever was typed, so
 * two ways of writing one formula give one tree.
 */
export type FormulaNode =
  | ({ kind: 'number'; value: number } & Span)
  | ({ kind: 'text'; value: string } & Span)
  | ({ kind: 'boolean'; value: boolean } & Span)
  | ({ kind: 'field'; name: string } & Span)
  | ({ kind: 'negate'; operand: FormulaNode } & Span)
  | ({ kind: 'binary'; operator: BinaryOperator; left: FormulaNode; right: FormulaNode } & Span)
  | ({ kind: 'call'; name: string; args: FormulaNode[] } & Span);

const TYPE_WORDS: Record<FormulaType, string> = {
  number: 'a number',
  text: 'text',
  boolean: 'a yes/no value',
  date: 'a date',
  dateTime: 'a date and time',
  list: 'a list',
};

/** A type in the words messages use: "a number", "text", "a yes/no value", … */
export function describeType(type: FormulaType): string {
  return TYPE_WORDS[type];
}

const FIELD_TYPE_MAP: Readonly<Record<string, FormulaType>> = {
  text: 'text',
  longText: 'text',
  select: 'text',
  url: 'text',
  email: 'text',
  number: 'number',
  rating: 'number',
  currency: 'number',
  // Stored as seconds, so it adds and compares like any number.
  duration: 'number',
  boolean: 'boolean',
  date: 'date',
  dateTime: 'dateTime',
  multiChoice: 'list',
  // The ids of the linked records: COUNT() counts them, IS_EMPTY() asks whether there are any.
  relation: 'list',
  // The account's id: IS_EMPTY() asks whether anyone is assigned; its name is the space's to show.
  person: 'text',
};

/**
 * The type a stored field's value has in a formula; null for a formula field, whose type is its
 * formula's, and for a rollup that can't be worked out. A type this version does not know reads as text: a newer app still computes.
 */
export function formulaTypeOf(fieldType: string): FormulaType | null {
  // A rollup reaches formulas as the type of value it gives (fieldsForFormulas); one still typed
  // `rollup` can't be worked out.
  if (fieldType === 'formula' || fieldType === 'rollup') return null;
  return Object.hasOwn(FIELD_TYPE_MAP, fieldType) ? (FIELD_TYPE_MAP[fieldType] ?? 'text') : 'text';
}

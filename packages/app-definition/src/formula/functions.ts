import { FORMULA_TYPES, type FormulaType } from './types';

/**
 * What a function's value may be: one type, a day (`date` or `dateTime`: its day is used), text or
 * a list, anything, or `same`: every `same` value of the call has one type, which is then often
 * the call's own (IF's two results, MIN's values).
 */
export type ParamKind = FormulaType | 'day' | 'textOrList' | 'any' | 'same';

export interface FunctionSpec {
  name: string;
  /** How the editor's help writes the call. */
  signature: string;
  /** One line for the editor's help. */
  description: string;
  /** The fewest and most values it takes (`Infinity`: any number). */
  min: number;
  max: number;
  /** The kind of each value; past the end of this list, the last kind repeats. */
  params: readonly ParamKind[];
  /** Its result's type; `same` is the type its `same` values share. */
  returns: FormulaType | 'same';
  /** The types its `same` values may have (any type when not given). */
  sameTypes?: readonly FormulaType[];
}

type Spec = Omit<FunctionSpec, 'min' | 'max'> & { min?: number; max?: number };

const ORDERED: readonly FormulaType[] = ['number', 'date', 'dateTime'];

/** Each function once; `min`/`max` default to the length of `params`. */
const SPECS: readonly Spec[] = [
  {
    name: 'IF',
    signature: 'IF(condition, then, otherwise)',
    description: 'The second value when the condition is true, else the third.',
    params: ['boolean', 'same', 'same'],
    returns: 'same',
  },
  {
    name: 'AND',
    signature: 'AND(value, …)',
    description: 'True when every value is true.',
    params: ['boolean'],
    max: Infinity,
    returns: 'boolean',
  },
  {
    name: 'OR',
    signature: 'OR(value, …)',
    description: 'True when at least one value is true.',
    params: ['boolean'],
    max: Infinity,
    returns: 'boolean',
  },
  {
    name: 'NOT',
    signature: 'NOT(value)',
    description: 'True when the value is false, false when it is true.',
    params: ['boolean'],
    returns: 'boolean',
  },
  {
    name: 'ROUND',
    signature: 'ROUND(number, digits?)',
    description: 'The number rounded to that many digits after the point (0 if not given).',
    params: ['number', 'number'],
    min: 1,
    returns: 'number',
  },
  {
    name: 'FLOOR',
    signature: 'FLOOR(number)',
    description: 'The number rounded down to a whole number.',
    params: ['number'],
    returns: 'number',
  },
  {
    name: 'CEIL',
    signature: 'CEIL(number)',
    description: 'The number rounded up to a whole number.',
    params: ['number'],
    returns: 'number',
  },
  {
    name: 'ABS',
    signature: 'ABS(number)',
    description: 'The number without its minus sign.',
    params: ['number'],
    returns: 'number',
  },
  {
    name: 'MIN',
    signature: 'MIN(value, …)',
    description: 'The smallest number or the earliest date; empty values are skipped.',
    params: ['same'],
    max: Infinity,
    returns: 'same',
    sameTypes: ORDERED,
  },
  {
    name: 'MAX',
    signature: 'MAX(value, …)',
    description: 'The largest number or the latest date; empty values are skipped.',
    params: ['same'],
    max: Infinity,
    returns: 'same',
    sameTypes: ORDERED,
  },
  {
    name: 'SUM',
    signature: 'SUM(number, …)',
    description: 'The numbers added up; an empty value counts as 0.',
    params: ['number'],
    max: Infinity,
    returns: 'number',
  },
  {
    name: 'AVERAGE',
    signature: 'AVERAGE(number, …)',
    description: 'The average of the numbers that are not empty.',
    params: ['number'],
    max: Infinity,
    returns: 'number',
  },
  {
    name: 'LEN',
    signature: 'LEN(text)',
    description: 'How many characters the text has.',
    params: ['text'],
    returns: 'number',
  },
  {
    name: 'UPPER',
    signature: 'UPPER(text)',
    description: 'The text in capital letters.',
    params: ['text'],
    returns: 'text',
  },
  {
    name: 'LOWER',
    signature: 'LOWER(text)',
    description: 'The text in small letters.',
    params: ['text'],
    returns: 'text',
  },
  {
    name: 'TRIM',
    signature: 'TRIM(text)',
    description: 'The text without spaces at either end.',
    params: ['text'],
    returns: 'text',
  },
  {
    name: 'CONCAT',
    signature: 'CONCAT(value, …)',
    description: 'The values joined into one text, as & joins them.',
    params: ['any'],
    max: Infinity,
    returns: 'text',
  },
  {
    name: 'CONTAINS',
    signature: 'CONTAINS(text or list, text)',
    description: 'Whether the text holds the second one, or the list has it, ignoring case.',
    params: ['textOrList', 'text'],
    returns: 'boolean',
  },
  {
    name: 'TEXT',
    signature: 'TEXT(value)',
    description: 'The value as text.',
    params: ['any'],
    returns: 'text',
  },
  {
    name: 'IS_EMPTY',
    signature: 'IS_EMPTY(value)',
    description: 'True when the value is empty.',
    params: ['any'],
    returns: 'boolean',
  },
  {
    name: 'COALESCE',
    signature: 'COALESCE(value, value, …)',
    description: 'The first value that is not empty.',
    params: ['same'],
    min: 2,
    max: Infinity,
    returns: 'same',
  },
  {
    name: 'TODAY',
    signature: 'TODAY()',
    description: 'Today’s date.',
    params: [],
    returns: 'date',
  },
  {
    name: 'NOW',
    signature: 'NOW()',
    description: 'The current date and time.',
    params: [],
    returns: 'dateTime',
  },
  {
    name: 'DAYS_SINCE',
    signature: 'DAYS_SINCE(date)',
    description: 'How many days ago the date was (below 0 when it is still to come).',
    params: ['day'],
    returns: 'number',
  },
  {
    name: 'DAYS_UNTIL',
    signature: 'DAYS_UNTIL(date)',
    description: 'How many days until the date (below 0 when it has passed).',
    params: ['day'],
    returns: 'number',
  },
  {
    name: 'DAYS_BETWEEN',
    signature: 'DAYS_BETWEEN(start, end)',
    description: 'How many days from the first date to the second.',
    params: ['day', 'day'],
    returns: 'number',
  },
  {
    name: 'ADD_DAYS',
    signature: 'ADD_DAYS(date, days)',
    description: 'The date that many days later (earlier, with a number below 0).',
    params: ['day', 'number'],
    returns: 'date',
  },
  {
    name: 'IS_OVERDUE',
    signature: 'IS_OVERDUE(date)',
    description: 'True when the date is before today.',
    params: ['day'],
    returns: 'boolean',
  },
  {
    name: 'YEAR',
    signature: 'YEAR(date)',
    description: 'The year of the date.',
    params: ['day'],
    returns: 'number',
  },
  {
    name: 'MONTH',
    signature: 'MONTH(date)',
    description: 'The month of the date, from 1 (January) to 12.',
    params: ['day'],
    returns: 'number',
  },
  {
    name: 'DAY',
    signature: 'DAY(date)',
    description: 'The day of the month, from 1 to 31.',
    params: ['day'],
    returns: 'number',
  },
  {
    name: 'WEEKDAY',
    signature: 'WEEKDAY(date)',
    description: 'The day of the week, from 1 (Monday) to 7 (Sunday).',
    params: ['day'],
    returns: 'number',
  },
  {
    name: 'COUNT',
    signature: 'COUNT(list)',
    description: 'How many choices the list has.',
    params: ['list'],
    returns: 'number',
  },
];

const FUNCTION_SPECS: ReadonlyMap<string, FunctionSpec> = new Map(
  SPECS.map((spec) => [
    spec.name,
    { ...spec, min: spec.min ?? spec.params.length, max: spec.max ?? spec.params.length },
  ]),
);

/** A function by its name, whatever its case; undefined when there is none. */
export function functionSpec(name: string): FunctionSpec | undefined {
  return FUNCTION_SPECS.get(name.toUpperCase());
}

/** The kind of the value at `index` of a call (the last kind repeats). */
export function paramKind(spec: FunctionSpec, index: number): ParamKind {
  return spec.params[Math.min(index, spec.params.length - 1)] ?? 'any';
}

/** The types a `same` value of this function may have. */
export function sameTypesOf(spec: FunctionSpec): readonly FormulaType[] {
  return spec.sameTypes ?? FORMULA_TYPES;
}

/** The functions for the editor's help: name, how to write it, and what it gives. */
export const FORMULA_FUNCTIONS: ReadonlyArray<
  Readonly<Pick<FunctionSpec, 'name' | 'signature' | 'description'>>
> = SPECS.map(({ name, signature, description }) => ({ name, signature, description }));

export const FUNCTION_NAMES: readonly string[] = SPECS.map((spec) => spec.name);

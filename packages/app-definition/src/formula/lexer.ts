import type { FormulaError } from './types';

export type OperatorText =
  '+' | '-' | '*' | '/' | '%' | '&' | '=' | '!=' | '<' | '<=' | '>' | '>=' | '(' | ')' | ',';

/** One piece of a formula's text; `start`/`end` are offsets into it. */
export type Token = { start: number; end: number } & (
  | { kind: 'number'; value: number }
  | { kind: 'text'; value: string }
  | { kind: 'field'; name: string }
  | { kind: 'word'; text: string }
  | { kind: 'operator'; text: OperatorText }
  | { kind: 'end' }
  /** Where the text stops making sense: the parser reports it when it gets there. */
  | { kind: 'bad'; error: FormulaError }
);

const NUMBER = /\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WORD = /[A-Za-z_][A-Za-z0-9_]*/y;
const SPACE = /\s/;
/** Two characters first: `<=` is one operator, not `<` then `=`. */
const OPERATORS: readonly OperatorText[] = [
  '<=',
  '>=',
  '!=',
  '+',
  '-',
  '*',
  '/',
  '%',
  '&',
  '=',
  '<',
  '>',
  '(',
  ')',
  ',',
];

/**
 * What people coming from spreadsheets or code type by habit, and what to write instead. Checked
 * after the two-character operators (`!=` is one) and before the single ones, so `==` is not read
 * as `=` followed by a stray `=`.
 */
const HABITS: ReadonlyArray<readonly [string, string]> = [
  ['==', 'Use = to compare, not ==.'],
  ['<>', 'Use != for “not equal”.'],
  ['&&', 'Use and instead of &&.'],
  ['||', 'Use or instead of ||.'],
  ['!', 'Use not to turn a yes/no value around, or != for “not equal”.'],
  ["'", 'Write text in straight double quotes, like "Done".'],
  ['“', 'Write text in straight double quotes, like "Done".'],
  ['”', 'Write text in straight double quotes, like "Done".'],
  ['}', 'This } closes no field name: write a field like {Price}.'],
];

/** A character position for people: the first character is 1. */
export function columnOf(offset: number): number {
  return offset + 1;
}

class LexError extends Error {
  constructor(readonly problem: FormulaError) {
    super(problem.message);
  }
}

function fail(message: string, start: number, end: number): never {
  throw new LexError({ message, start, end });
}

/** Text in double quotes from `start` (the quote), with `\"` and `\\` as the only escapes. */
function readQuoted(source: string, start: number, close: string, what: 'text' | 'field') {
  let value = '';
  let at = start + 1;
  while (at < source.length) {
    const char = source[at] as string;
    if (char === close) return { value, end: at + 1 };
    if (char === '\\') {
      const next = source[at + 1];
      if (next !== close && next !== '\\') {
        fail(
          what === 'text'
            ? 'Inside text, write \\" for a quote and \\\\ for a backslash.'
            : 'Inside a field’s name, write \\} for } and \\\\ for a backslash.',
          at,
          Math.min(at + 2, source.length),
        );
      }
      value += next;
      at += 2;
      continue;
    }
    value += char;
    at += 1;
  }
  return fail(
    what === 'text'
      ? `Missing " to close the text at ${columnOf(start)}.`
      : `Missing } to close the field’s name at ${columnOf(start)}.`,
    start,
    source.length,
  );
}

function readNumber(source: string, start: number): Token {
  NUMBER.lastIndex = start;
  const text = (NUMBER.exec(source) as RegExpExecArray)[0];
  const end = start + text.length;
  if (source[end] === '.') fail('Write a number like 12 or 3.5.', start, end + 1);
  const value = Number(text);
  if (value > Number.MAX_SAFE_INTEGER) {
    fail('Use numbers up to 9,007,199,254,740,991.', start, end);
  }
  return { kind: 'number', value, start, end };
}

function readField(source: string, start: number): Token {
  const { value, end } = readQuoted(source, start, '}', 'field');
  if (value.trim() === '') fail('Write a field’s name between { and }, like {Price}.', start, end);
  return { kind: 'field', name: value, start, end };
}

function readOperator(source: string, start: number): Token {
  const pair = OPERATORS.find((op) => op.length === 2 && source.startsWith(op, start));
  if (pair) return { kind: 'operator', text: pair, start, end: start + 2 };
  for (const [habit, message] of HABITS) {
    if (source.startsWith(habit, start)) fail(message, start, start + habit.length);
  }
  const text = OPERATORS.find((op) => source.startsWith(op, start));
  if (text) return { kind: 'operator', text, start, end: start + text.length };
  if (source[start] === '.' && /\d/.test(source[start + 1] ?? '')) {
    fail('Write decimals with a digit before the point, like 0.5.', start, start + 1);
  }
  const char = String.fromCodePoint(source.codePointAt(start) as number);
  return fail(`“${char}” can’t be used in a formula.`, start, start + char.length);
}

function readToken(source: string, start: number): Token {
  const char = source[start] as string;
  if (char >= '0' && char <= '9') return readNumber(source, start);
  if (char === '"') {
    const { value, end } = readQuoted(source, start, '"', 'text');
    return { kind: 'text', value, start, end };
  }
  if (char === '{') return readField(source, start);
  WORD.lastIndex = start;
  const word = WORD.exec(source);
  if (word) return { kind: 'word', text: word[0], start, end: start + word[0].length };
  return readOperator(source, start);
}

/**
 * The tokens of a formula, ending with `end`, or with `bad` where the text stops making sense (an
 * unclosed quote, a character formulas do not use): the parser meets that problem in order, so a
 * mistake earlier in the formula is still the one reported first.
 */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < source.length) {
    if (SPACE.test(source[at] as string)) {
      at += 1;
      continue;
    }
    try {
      const token = readToken(source, at);
      tokens.push(token);
      at = token.end;
    } catch (error) {
      if (!(error instanceof LexError)) throw error;
      tokens.push({ kind: 'bad', error: error.problem, start: at, end: error.problem.end });
      return tokens;
    }
  }
  tokens.push({ kind: 'end', start: source.length, end: source.length });
  return tokens;
}

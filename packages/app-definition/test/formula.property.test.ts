import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import {
  checkFormula,
  compileCollectionFormulas,
  evaluateFormulas,
  FORMULA_LIMITS,
  type FormulaEnv,
  type FormulaField,
  type FormulaNode,
  type FormulaResult,
  type FormulaType,
  parseFormula,
  printFormula,
  renameFieldInFormula,
} from '../src/index';

/*
 * Seeded property tests of the formula language: the parser on any text, printing and parsing
 * back, and evaluation of generated well-typed formulas on any stored values. A failure prints the
 * seed and the shrunk counter-example; replay it with `{ seed, path, endOnFailure: true }`.
 */

const RUNS = { seed: 20_261_129, numRuns: 300 };

// --- Fields and values ------------------------------------------------------------------------

const FIELDS: FormulaField[] = [
  { id: 'n1', name: 'Price', type: 'number' },
  { id: 'n2', name: 'Rating', type: 'rating' },
  { id: 'n3', name: 'Length', type: 'duration' },
  { id: 't1', name: 'Name', type: 'text' },
  { id: 't2', name: 'Odd } \\ name', type: 'select' },
  { id: 't3', name: 'Mystery', type: 'hologram' },
  { id: 'b1', name: 'Done', type: 'boolean' },
  { id: 'd1', name: 'Due date', type: 'date' },
  { id: 'dt1', name: 'Starts at', type: 'dateTime' },
  { id: 'l1', name: 'Tags', type: 'multiChoice' },
  { id: 'f1', name: 'Total', type: 'formula', formula: '{Price} * 2 + SUM({Rating}, 1)' },
];

const FIELDS_OF: Record<FormulaType, string[]> = {
  number: ['Price', 'Rating', 'Length', 'Total'],
  text: ['Name', 'Odd } \\ name', 'Mystery'],
  boolean: ['Done'],
  date: ['Due date'],
  dateTime: ['Starts at'],
  list: ['Tags'],
};

/** 0001-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z: the instants a formula may hold. */
const MIN_MS = -62_135_596_800_000;
const MAX_MS = 253_402_300_799_999;
const isoDay = fc
  .date({ min: new Date(MIN_MS), max: new Date(MAX_MS), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));
const isoInstant = fc
  .date({ min: new Date(MIN_MS), max: new Date(MAX_MS), noInvalidDate: true })
  .map((date) => date.toISOString());
const anyStored = fc.oneof(
  fc.constant(null),
  fc.string({ maxLength: 8 }),
  fc.double(),
  fc.maxSafeInteger(),
  fc.boolean(),
  isoDay,
  isoInstant,
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.anything({ maxDepth: 1 }),
);
const values = fc.record(
  Object.fromEntries(FIELDS.map((field) => [field.id, anyStored])) as Record<
    string,
    typeof anyStored
  >,
  { requiredKeys: [] },
);
const env: fc.Arbitrary<FormulaEnv> = fc.record({
  today: fc.oneof({ weight: 9, arbitrary: isoDay }, { weight: 1, arbitrary: fc.string() }),
  now: fc.oneof(
    { weight: 9, arbitrary: fc.integer({ min: MIN_MS, max: MAX_MS }) },
    { weight: 1, arbitrary: fc.double() },
  ),
  timeZone: fc.constantFrom(
    'UTC',
    'Pacific/Auckland',
    'America/Los_Angeles',
    'Asia/Kolkata',
    'Pacific/Kiritimati',
    'Mars/Olympus',
  ),
});

// --- Well-typed formulas ------------------------------------------------------------------------

const AT = { start: 0, end: 0 };
const call = (name: string, ...args: FormulaNode[]): FormulaNode => ({
  kind: 'call',
  name,
  args,
  ...AT,
});
const binary = (
  operator: (FormulaNode & { kind: 'binary' })['operator'],
  left: FormulaNode,
  right: FormulaNode,
): FormulaNode => ({ kind: 'binary', operator, left, right, ...AT });
const field = (type: FormulaType) =>
  fc.constantFrom(...FIELDS_OF[type]).map((name): FormulaNode => ({ kind: 'field', name, ...AT }));

const LEAVES: Record<FormulaType, fc.Arbitrary<FormulaNode>> = {
  number: fc.oneof(
    field('number'),
    fc
      .oneof(fc.nat(1_000), fc.double({ min: 0, max: 1e6, noNaN: true }))
      .map((value): FormulaNode => ({ kind: 'number', value: value === 0 ? 0 : value, ...AT })),
  ),
  text: fc.oneof(
    field('text'),
    fc
      .string({ unit: 'binary', maxLength: 6 })
      .map((value): FormulaNode => ({ kind: 'text', value, ...AT })),
  ),
  boolean: fc.oneof(
    field('boolean'),
    fc.boolean().map((value): FormulaNode => ({ kind: 'boolean', value, ...AT })),
  ),
  date: fc.oneof(field('date'), fc.constant(call('TODAY'))),
  dateTime: fc.oneof(field('dateTime'), fc.constant(call('NOW'))),
  list: field('list'),
};

const TYPES: readonly FormulaType[] = ['number', 'text', 'boolean', 'date', 'dateTime', 'list'];
const memo = new Map<string, fc.Arbitrary<FormulaNode>>();

/** A formula of `type`, at most `depth` calls or operators deep. */
function typed(type: FormulaType, depth: number): fc.Arbitrary<FormulaNode> {
  const key = `${type}:${depth}`;
  const known = memo.get(key);
  if (known) return known;
  const made =
    depth === 0
      ? LEAVES[type]
      : fc.oneof(
          { weight: 2, arbitrary: LEAVES[type] },
          { weight: 5, arbitrary: composite(type, depth - 1) },
        );
  memo.set(key, made);
  return made;
}

const anyTyped = (depth: number) => fc.constantFrom(...TYPES).chain((type) => typed(type, depth));
const day = (depth: number) => fc.oneof(typed('date', depth), typed('dateTime', depth));
const some = (type: FormulaType, depth: number) =>
  fc.array(typed(type, depth), { minLength: 1, maxLength: 3 });
/** IF and COALESCE give any type. */
const either = (type: FormulaType, depth: number) =>
  fc.oneof(
    fc
      .tuple(typed('boolean', depth), typed(type, depth), typed(type, depth))
      .map(([c, a, b]) => call('IF', c, a, b)),
    fc.tuple(typed(type, depth), typed(type, depth)).map(([a, b]) => call('COALESCE', a, b)),
  );

function numberComposite(d: number): fc.Arbitrary<FormulaNode> {
  const n = typed('number', d);
  return fc.oneof(
    n.map((operand): FormulaNode => ({ kind: 'negate', operand, ...AT })),
    fc
      .tuple(fc.constantFrom('+', '-', '*', '/', '%' as const), n, n)
      .map(([op, a, b]) => binary(op, a, b)),
    fc.tuple(fc.constantFrom('ROUND', 'FLOOR', 'CEIL', 'ABS'), n).map(([f, a]) => call(f, a)),
    fc
      .tuple(n, fc.integer({ min: 0, max: 4 }))
      .map(([a, digits]) => call('ROUND', a, { kind: 'number', value: digits, ...AT })),
    fc
      .tuple(fc.constantFrom('MIN', 'MAX', 'SUM', 'AVERAGE'), some('number', d))
      .map(([f, args]) => call(f, ...args)),
    typed('text', d).map((t) => call('LEN', t)),
    typed('list', d).map((l) => call('COUNT', l)),
    fc
      .tuple(fc.constantFrom('DAYS_SINCE', 'DAYS_UNTIL', 'YEAR', 'MONTH', 'DAY', 'WEEKDAY'), day(d))
      .map(([f, a]) => call(f, a)),
    fc.tuple(day(d), day(d)).map(([a, b]) => call('DAYS_BETWEEN', a, b)),
    either('number', d),
  );
}

function textComposite(d: number): fc.Arbitrary<FormulaNode> {
  return fc.oneof(
    fc.tuple(anyTyped(d), anyTyped(d)).map(([a, b]) => binary('&', a, b)),
    fc.array(anyTyped(d), { minLength: 1, maxLength: 3 }).map((args) => call('CONCAT', ...args)),
    fc
      .tuple(fc.constantFrom('UPPER', 'LOWER', 'TRIM'), typed('text', d))
      .map(([f, a]) => call(f, a)),
    anyTyped(d).map((a) => call('TEXT', a)),
    either('text', d),
  );
}

function comparison(d: number): fc.Arbitrary<FormulaNode> {
  const ordered = fc.constantFrom('=', '!=', '<', '<=', '>', '>=' as const);
  return fc.oneof(
    fc.tuple(ordered, typed('number', d), typed('number', d)).map(([o, a, b]) => binary(o, a, b)),
    fc.tuple(ordered, typed('text', d), typed('text', d)).map(([o, a, b]) => binary(o, a, b)),
    fc.tuple(ordered, day(d), day(d)).map(([o, a, b]) => binary(o, a, b)),
    fc
      .tuple(fc.constantFrom('=', '!=' as const), typed('boolean', d), typed('boolean', d))
      .map(([o, a, b]) => binary(o, a, b)),
    fc
      .tuple(fc.constantFrom('=', '!=' as const), typed('list', d), typed('list', d))
      .map(([o, a, b]) => binary(o, a, b)),
  );
}

function booleanComposite(d: number): fc.Arbitrary<FormulaNode> {
  const b = typed('boolean', d);
  return fc.oneof(
    comparison(d),
    fc.tuple(fc.constantFrom('and', 'or' as const), b, b).map(([o, x, y]) => binary(o, x, y)),
    b.map((x) => call('NOT', x)),
    fc.tuple(fc.constantFrom('AND', 'OR'), some('boolean', d)).map(([f, a]) => call(f, ...a)),
    fc
      .tuple(fc.oneof(typed('text', d), typed('list', d)), typed('text', d))
      .map(([h, n]) => call('CONTAINS', h, n)),
    anyTyped(d).map((a) => call('IS_EMPTY', a)),
    day(d).map((a) => call('IS_OVERDUE', a)),
    either('boolean', d),
  );
}

function composite(type: FormulaType, d: number): fc.Arbitrary<FormulaNode> {
  switch (type) {
    case 'number':
      return numberComposite(d);
    case 'text':
      return textComposite(d);
    case 'boolean':
      return booleanComposite(d);
    case 'date':
      return fc.oneof(
        fc.tuple(day(d), typed('number', d)).map(([a, n]) => call('ADD_DAYS', a, n)),
        fc
          .tuple(fc.constantFrom('MIN', 'MAX'), some('date', d))
          .map(([f, args]) => call(f, ...args)),
        either('date', d),
      );
    case 'dateTime':
      return fc.oneof(
        fc
          .tuple(fc.constantFrom('MIN', 'MAX'), some('dateTime', d))
          .map(([f, args]) => call(f, ...args)),
        either('dateTime', d),
      );
    case 'list':
      return either('list', d);
  }
}

function nodeCount(node: FormulaNode): number {
  if (node.kind === 'negate') return 1 + nodeCount(node.operand);
  if (node.kind === 'binary') return 1 + nodeCount(node.left) + nodeCount(node.right);
  if (node.kind === 'call') return node.args.reduce((sum, arg) => sum + nodeCount(arg), 1);
  return 1;
}

/**
 * Operators only, nested deeper: where printing must get precedence and brackets right (a value
 * of the same power on the right of `-` needs them, on the left it does not).
 */
const OPERATOR_DEPTH = { depthSize: 'small', maxDepth: 6 } as const;
const operators = fc.letrec<Record<'number' | 'text' | 'boolean', FormulaNode>>((tie) => ({
  number: fc.oneof(
    OPERATOR_DEPTH,
    LEAVES.number,
    fc
      .tuple(fc.constantFrom('+', '-', '*', '/', '%' as const), tie('number'), tie('number'))
      .map(([op, a, b]) => binary(op, a, b)),
    tie('number').map((operand): FormulaNode => ({ kind: 'negate', operand, ...AT })),
  ),
  text: fc.oneof(
    OPERATOR_DEPTH,
    LEAVES.text,
    fc
      .tuple(fc.oneof(tie('text'), tie('number')), fc.oneof(tie('text'), tie('boolean')))
      .map(([a, b]) => binary('&', a, b)),
  ),
  boolean: fc.oneof(
    OPERATOR_DEPTH,
    LEAVES.boolean,
    fc
      .tuple(
        fc.constantFrom('=', '!=', '<', '<=', '>', '>=' as const),
        tie('number'),
        tie('number'),
      )
      .map(([op, a, b]) => binary(op, a, b)),
    fc
      .tuple(fc.constantFrom('=', '<' as const), tie('text'), tie('text'))
      .map(([op, a, b]) => binary(op, a, b)),
    fc
      .tuple(fc.constantFrom('and', 'or', '=' as const), tie('boolean'), tie('boolean'))
      .map(([op, a, b]) => binary(op, a, b)),
    tie('boolean').map((operand) => call('NOT', operand)),
  ),
}));

const DEPTH = 3;
const formula = fc
  .oneof(
    fc.constantFrom(...TYPES).chain((type) => typed(type, DEPTH).map((ast) => ({ type, ast }))),
    fc
      .constantFrom('number', 'text', 'boolean' as const)
      .chain((type) => operators[type].map((ast) => ({ type, ast }))),
  )
  .map(({ type, ast }) => ({ type: type as FormulaType, ast, source: printFormula(ast) }))
  .filter(
    ({ ast, source }) =>
      source.length <= FORMULA_LIMITS.sourceLength && nodeCount(ast) <= FORMULA_LIMITS.nodes,
  );

// --- Helpers ------------------------------------------------------------------------------------

/** A tree without its character positions, which printing does not keep. */
function shape(node: FormulaNode): unknown {
  switch (node.kind) {
    case 'negate':
      return { kind: node.kind, operand: shape(node.operand) };
    case 'binary':
      return {
        kind: node.kind,
        operator: node.operator,
        left: shape(node.left),
        right: shape(node.right),
      };
    case 'call':
      return { kind: node.kind, name: node.name, args: node.args.map(shape) };
    default: {
      const { start: _start, end: _end, ...rest } = node;
      return rest;
    }
  }
}

function compileWith(source: string) {
  return compileCollectionFormulas([
    ...FIELDS,
    { id: 'f', name: 'Formula', type: 'formula', formula: source },
  ]);
}

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

function expectOfType(result: FormulaResult, type: FormulaType): void {
  if ('error' in result) {
    expect(typeof result.error).toBe('string');
    expect(result.error.length).toBeGreaterThan(0);
    return;
  }
  const { value } = result;
  if (value === null) return;
  switch (type) {
    case 'number':
      expect(typeof value).toBe('number');
      expect(Number.isFinite(value)).toBe(true);
      expect(Math.abs(value as number)).toBeLessThanOrEqual(Number.MAX_SAFE_INTEGER);
      expect(Object.is(value, -0)).toBe(false);
      return;
    case 'text':
      expect(typeof value).toBe('string');
      expect(value).not.toBe('');
      return;
    case 'boolean':
      expect(typeof value).toBe('boolean');
      return;
    case 'date':
      expect(value).toMatch(ISO_DAY);
      expect(new Date(`${value as string}T00:00:00.000Z`).toISOString().slice(0, 10)).toBe(value);
      return;
    case 'dateTime':
      expect(new Date(value as string).toISOString()).toBe(value);
      return;
    case 'list':
      expect(Array.isArray(value)).toBe(true);
      expect((value as unknown[]).length).toBeGreaterThan(0);
      expect((value as unknown[]).every((item) => typeof item === 'string')).toBe(true);
  }
}

// --- Properties ---------------------------------------------------------------------------------

const TOKENS = [
  '(',
  ')',
  ',',
  '+',
  '-',
  '*',
  '/',
  '%',
  '&',
  '=',
  '!=',
  '<',
  '>=',
  'and',
  'OR',
  'not',
  '1',
  '2.5',
  '"a"',
  '"',
  '\\',
  '{Price}',
  '{Name}',
  '{',
  '}',
  'IF(',
  'ROUND(',
  'SUM(',
  'TODAY()',
  'true',
  'x',
  ' ',
];
const soup = fc.array(fc.constantFrom(...TOKENS), { maxLength: 40 }).map((t) => t.join(''));
const anyText = fc.oneof(fc.string({ unit: 'binary', maxLength: 1_100 }), soup);

describe('the formula language, on generated input', () => {
  test.prop([anyText], RUNS)(
    'parses or checks any text without throwing, pointing inside it',
    (source) => {
      for (const result of [parseFormula(source), checkFormula(source, FIELDS)]) {
        if (result.ok) continue;
        const { start, end, message } = result.error;
        expect(message.length).toBeGreaterThan(0);
        expect(0 <= start && start <= end && end <= source.length).toBe(true);
      }
      expect(typeof renameFieldInFormula(source, 'Price', 'Cost')).toBe('string');
    },
  );

  test.prop([soup], RUNS)('prints any parsed formula as text that parses back to it', (source) => {
    const parsed = parseFormula(source);
    if (!parsed.ok) return;
    const again = parseFormula(printFormula(parsed.ast));
    expect(again.ok && shape(again.ast)).toEqual(shape(parsed.ast));
  });

  test.prop([formula], RUNS)(
    'prints a well-typed formula as text that parses back to the same tree, of its type',
    ({ type, ast, source }) => {
      const parsed = parseFormula(source);
      expect(parsed.ok && shape(parsed.ast)).toEqual(shape(ast));
      expect(checkFormula(source, FIELDS)).toMatchObject({ ok: true, type });
    },
  );

  test.prop([formula, values, env], RUNS)(
    'evaluates a well-typed formula on any values to its type, empty, or an error',
    ({ type, source }, record, environment) => {
      const compiled = compileWith(source);
      expect(compiled.errors).toEqual({});
      expect(compiled.order.at(-1)?.type).toBe(type);
      const results = evaluateFormulas(compiled, record, environment);
      expectOfType(results.f as FormulaResult, type);
      expectOfType(results.f1 as FormulaResult, 'number');
    },
  );

  test.prop([formula, values, env], { ...RUNS, numRuns: 150 })(
    'evaluates the same way every time',
    ({ source }, record, environment) => {
      const first = evaluateFormulas(compileWith(source), record, environment);
      const shuffled = Object.fromEntries(Object.entries(record).reverse());
      const second = evaluateFormulas(compileWith(source), shuffled, { ...environment });
      expect(second).toEqual(first);
    },
  );

  test.prop(
    [fc.maxSafeInteger(), fc.maxSafeInteger(), fc.constantFrom('+', '-', '*', '/', '%')],
    RUNS,
  )('agrees with JavaScript on integer arithmetic', (a, b, operator) => {
    const js = { '+': a + b, '-': a - b, '*': a * b, '/': a / b, '%': a % b }[operator] as number;
    const expected =
      (operator === '/' || operator === '%') && b === 0
        ? { error: 'Divided by zero.' }
        : Math.abs(js) > Number.MAX_SAFE_INTEGER
          ? { error: 'The result is too large.' }
          : { value: js === 0 ? 0 : js };
    const literal = (n: number) => (n < 0 ? `(-${-n})` : String(n));
    const fields = [
      { id: 'a', name: 'A', type: 'number' },
      { id: 'b', name: 'B', type: 'number' },
      { id: 'viaFields', name: 'F', type: 'formula', formula: `{A} ${operator} {B}` },
      {
        id: 'viaLiterals',
        name: 'L',
        type: 'formula',
        formula: `${literal(a)} ${operator} ${literal(b)}`,
      },
    ];
    const env = { today: '2026-01-01', now: 0, timeZone: 'UTC' };
    const results = evaluateFormulas(compileCollectionFormulas(fields), { a, b }, env);
    expect(results).toEqual({ viaFields: expected, viaLiterals: expected });
  });
});

import { describe, expect, it } from 'vitest';
import {
  checkFormula,
  compileCollectionFormulas,
  describeType,
  evaluateFormulas,
  FORMULA_FUNCTIONS,
  FORMULA_LIMITS,
  type FormulaEnv,
  type FormulaField,
  type FormulaResult,
  formulaTypeOf,
  parseFormula,
  printFormula,
  renameFieldInFormula,
} from '../src/index';

const FIELDS: FormulaField[] = [
  { id: 'price', name: 'Price', type: 'number' },
  { id: 'qty', name: 'Quantity', type: 'number' },
  { id: 'name', name: 'Name', type: 'text' },
  { id: 'done', name: 'Done', type: 'boolean' },
  { id: 'due', name: 'Due date', type: 'date' },
  { id: 'at', name: 'Starts at', type: 'dateTime' },
  { id: 'tags', name: 'Tags', type: 'multiChoice' },
  { id: 'status', name: 'Status', type: 'select' },
  { id: 'length', name: 'Length', type: 'duration' },
];

const ENV: FormulaEnv = {
  today: '2026-03-10',
  now: Date.UTC(2026, 2, 10, 12, 30),
  timeZone: 'UTC',
};

/** The result of `source` as a formula field of FIELDS, for one record. */
function run(
  source: string,
  values: Record<string, unknown> = {},
  env: FormulaEnv = ENV,
): FormulaResult {
  const fields = [...FIELDS, { id: 'f', name: 'F', type: 'formula', formula: source }];
  return evaluateFormulas(compileCollectionFormulas(fields), values, env).f as FormulaResult;
}

function value(source: string, values: Record<string, unknown> = {}, env: FormulaEnv = ENV) {
  const result = run(source, values, env);
  if ('error' in result) throw new Error(`${source}: ${result.error}`);
  return result.value;
}

function runtimeError(source: string, values: Record<string, unknown> = {}, env = ENV) {
  const result = run(source, values, env);
  return 'error' in result ? result.error : null;
}

/** The first problem of `source`, and the text it points at. */
function problem(source: string, fields: readonly FormulaField[] = FIELDS) {
  const result = checkFormula(source, fields);
  if (result.ok) return null;
  const { message, start, end } = result.error;
  return { message, at: source.slice(start, end), start, end };
}

describe('literals and fields', () => {
  it('reads numbers, text with its escapes, and yes/no in any case', () => {
    expect(value('12')).toBe(12);
    expect(value('3.5')).toBe(3.5);
    expect(value('2e3')).toBe(2000);
    expect(value('"Say \\"hi\\" \\\\ bye"')).toBe('Say "hi" \\ bye');
    expect(value('true')).toBe(true);
    expect(value('FALSE')).toBe(false);
    expect(value('""')).toBeNull();
  });

  it('finds a field by its exact name, else by its trimmed name in any case', () => {
    expect(value('{Price}', { price: 4 })).toBe(4);
    expect(value('{  due DATE }', { due: '2026-01-02' })).toBe('2026-01-02');
    const twins = [
      { id: 'lower', name: 'cost', type: 'number' },
      { id: 'upper', name: 'Cost', type: 'number' },
    ];
    expect(checkFormula('{Cost}', twins)).toMatchObject({ ok: true, references: ['upper'] });
    expect(checkFormula('{COST}', twins)).toMatchObject({ ok: true, references: ['lower'] });
  });

  it('reads a name with } or \\ written \\} and \\\\', () => {
    const odd = [{ id: 'odd', name: 'Odd } \\ name', type: 'number' }];
    expect(checkFormula('{Odd \\} \\\\ name} + 1', odd)).toMatchObject({
      ok: true,
      type: 'number',
    });
  });

  it('maps each field type to a formula type', () => {
    expect(['text', 'longText', 'select', 'url', 'email'].map(formulaTypeOf)).toEqual(
      Array(5).fill('text'),
    );
    expect(['number', 'rating', 'currency', 'duration'].map(formulaTypeOf)).toEqual(
      Array(4).fill('number'),
    );
    expect(formulaTypeOf('boolean')).toBe('boolean');
    expect(formulaTypeOf('date')).toBe('date');
    expect(formulaTypeOf('dateTime')).toBe('dateTime');
    expect(formulaTypeOf('multiChoice')).toBe('list');
    expect(formulaTypeOf('formula')).toBeNull();
    expect(formulaTypeOf('hologram')).toBe('text');
    expect(formulaTypeOf('constructor')).toBe('text');
  });

  it('describes types in the words of messages', () => {
    expect(describeType('number')).toBe('a number');
    expect(describeType('text')).toBe('text');
    expect(describeType('boolean')).toBe('a yes/no value');
    expect(describeType('dateTime')).toBe('a date and time');
  });
});

describe('operators', () => {
  it('computes arithmetic as JavaScript does', () => {
    expect(value('7 + 2')).toBe(9);
    expect(value('7 - 2')).toBe(5);
    expect(value('7 * 2')).toBe(14);
    expect(value('7 / 2')).toBe(3.5);
    expect(value('7 % 3')).toBe(1);
    expect(value('-7 % 3')).toBe(-1);
    expect(value('-{Price}', { price: 2 })).toBe(-2);
    expect(value('0 * -1')).toBe(0);
    expect(Object.is(value('0 * -1'), -0)).toBe(false);
  });

  it('follows the usual precedence, grouping from the left', () => {
    expect(value('1 + 2 * 3')).toBe(7);
    expect(value('(1 + 2) * 3')).toBe(9);
    expect(value('-2 * 3 + 10 % 4')).toBe(-4);
    expect(value('2 - 3 - 4')).toBe(-5);
    expect(value('2 - (3 - 4)')).toBe(3);
    expect(value('16 / 4 / 2')).toBe(2);
    expect(value('"Total: " & 1 + 2')).toBe('Total: 3');
    expect(value('1 + 1 = 2 and 2 < 3 or false')).toBe(true);
    expect(value('false and true or true')).toBe(true);
    expect(value('false and (true or true)')).toBe(false);
    expect(value('not true or true')).toBe(true);
    expect(value('NOT (1 > 2) AnD 3 >= 3')).toBe(true);
    expect(value('"a" & 1 = "A1"')).toBe(true);
    expect(problem('"a" & 1 < 2')?.message).toBe(
      'Can’t compare text with a number: use TEXT(…) to compare them as text.',
    );
    expect(value('AND(true, false) or OR(false, true) and true')).toBe(true);
  });

  it('joins any values as text with &', () => {
    expect(value('{Name} & " x" & {Quantity}', { name: 'Tea', qty: 3 })).toBe('Tea x3');
    expect(value('"" & true & "/" & false')).toBe('Yes/No');
    expect(value('"Due " & {Due date}', { due: '2026-04-01' })).toBe('Due 2026-04-01');
    expect(value('{Tags} & ""', { tags: ['Red', 'Blue'] })).toBe('Red, Blue');
    expect(value('0.1 + 0.2 & ""')).toBe('0.3');
    expect(value('{Name} & {Name}')).toBeNull();
    expect(value('"[" & {Name} & "]"')).toBe('[]');
  });

  it('compares numbers at their visible digits, text ignoring case', () => {
    expect(value('0.1 + 0.2 = 0.3')).toBe(true);
    expect(value('0.1 + 0.2 > 0.3')).toBe(false);
    expect(value('9007199254740991 > 9007199254740990')).toBe(true);
    expect(value('{Status} = "done"', { status: 'Done' })).toBe(true);
    expect(value('"apple" < "Banana"')).toBe(true);
    expect(value('"b" <= "B"')).toBe(true);
    expect(value('true != false')).toBe(true);
    expect(value('{Tags} = {Tags}', { tags: ['a'] })).toBe(true);
    expect(value('{Due date} < {Due date}', { due: '2026-01-01' })).toBe(false);
  });

  it('compares a date with a date and time by the day, in the time zone', () => {
    const values = { due: '2026-03-10', at: '2026-03-10T23:30:00.000Z' };
    expect(value('{Due date} = {Starts at}', values)).toBe(true);
    expect(value('{Due date} = {Starts at}', values, { ...ENV, timeZone: 'Asia/Tokyo' })).toBe(
      false,
    );
    expect(value('{Due date} < {Starts at}', values, { ...ENV, timeZone: 'Asia/Tokyo' })).toBe(
      true,
    );
  });

  it('stops and/or once the answer is known', () => {
    expect(value('false and 1 / 0 = 1')).toBe(false);
    expect(value('true or 1 / 0 = 1')).toBe(true);
    expect(runtimeError('true and 1 / 0 = 1')).toBe('Divided by zero.');
  });
});

describe('empty values', () => {
  it('empties arithmetic with an empty side, but SUM counts it as 0', () => {
    expect(value('{Price} + 1')).toBeNull();
    expect(value('-{Price}')).toBeNull();
    expect(value('{Price} / 0')).toBeNull();
    expect(value('SUM({Price}, 1)')).toBe(1);
    expect(value('SUM({Price})')).toBe(0);
  });

  it('is equal only to empty, and never in order', () => {
    expect(value('{Name} = ""')).toBe(true);
    expect(value('{Name} = {Status}')).toBe(true);
    expect(value('{Status} != "Done"')).toBe(true);
    expect(value('{Status} = "Done"')).toBe(false);
    expect(value('{Price} < 1')).toBe(false);
    expect(value('{Price} >= 1')).toBe(false);
    expect(value('IS_EMPTY({Price})')).toBe(true);
    expect(value('IS_EMPTY({Price})', { price: 0 })).toBe(false);
  });

  it('counts as false in conditions', () => {
    expect(value('IF({Done}, 1, 2)')).toBe(2);
    expect(value('not {Done}')).toBe(true);
    expect(value('{Done} or true')).toBe(true);
    expect(value('AND({Done}, true)')).toBe(false);
  });

  it('reads a stored value of the wrong kind as empty', () => {
    expect(value('IS_EMPTY({Price})', { price: '12' })).toBe(true);
    expect(value('IS_EMPTY({Price})', { price: Infinity })).toBe(true);
    expect(value('IS_EMPTY({Price})', { price: 2 ** 60 })).toBe(true);
    expect(value('IS_EMPTY({Name})', { name: 12 })).toBe(true);
    expect(value('IS_EMPTY({Done})', { done: 'true' })).toBe(true);
    expect(value('IS_EMPTY({Due date})', { due: '2026-02-30' })).toBe(true);
    expect(value('IS_EMPTY({Due date})', { due: '2026-2-3' })).toBe(true);
    expect(value('IS_EMPTY({Starts at})', { at: '2026-02-03T10:00:00+02:00' })).toBe(true);
    expect(value('IS_EMPTY({Tags})', { tags: ['a', 3] })).toBe(true);
    expect(value('IS_EMPTY({Tags})', { tags: [] })).toBe(true);
    expect(value('IS_EMPTY({Tags})', { tags: 'a' })).toBe(true);
    expect(value('{Price} + 1', { price: 2, extra: 'ignored' })).toBe(3);
  });

  it('reads a duration as seconds', () => {
    expect(value('{Length} / 60', { length: 5400 })).toBe(90);
  });
});

describe('functions', () => {
  it('lists every function once, each with its signature and a description', () => {
    const names = FORMULA_FUNCTIONS.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toHaveLength(33);
    for (const f of FORMULA_FUNCTIONS) {
      expect(f.signature.startsWith(`${f.name}(`)).toBe(true);
      expect(f.description).toMatch(/^[A-Z].*\.$/);
    }
  });

  it('IF, AND, OR, NOT', () => {
    expect(value('IF({Price} > 10, "high", "low")', { price: 12 })).toBe('high');
    expect(value('if(false, 1, 2)')).toBe(2);
    expect(value('IF(true, 1, 1 / 0)')).toBe(1);
    expect(value('AND(true, true, 1 < 2)')).toBe(true);
    expect(value('AND(true, false)')).toBe(false);
    expect(value('OR(false, false, true)')).toBe(true);
    expect(value('OR(false)')).toBe(false);
    expect(value('NOT(false)')).toBe(true);
  });

  it('ROUND, FLOOR, CEIL, ABS', () => {
    expect(value('ROUND(3.14159, 2)')).toBe(3.14);
    expect(value('ROUND(2.5)')).toBe(3);
    expect(value('ROUND(-2.5)')).toBe(-3);
    expect(value('ROUND(1.005, 2)')).toBe(1.01);
    expect(value('ROUND(1234.5, -2)')).toBe(1200);
    expect(value('ROUND(0.004, 2)')).toBe(0);
    expect(value('ROUND(12, 3)')).toBe(12);
    expect(value('ROUND(1.5, {Price})')).toBe(2);
    expect(value('ROUND({Price}, 2)')).toBeNull();
    expect(runtimeError('ROUND(1.5, 0.5)')).toBe(
      'ROUND takes a whole number of digits from -15 to 15.',
    );
    expect(value('FLOOR(-2.5)')).toBe(-3);
    expect(value('FLOOR(0.1 * 3 * 10)')).toBe(3);
    expect(value('CEIL(2.1)')).toBe(3);
    expect(value('CEIL(0.1 * 3 * 10)')).toBe(3);
    expect(value('ABS(-4)')).toBe(4);
  });

  it('MIN, MAX, SUM, AVERAGE skip or count empty values', () => {
    expect(value('MIN(3, {Price}, 1, 2)')).toBe(1);
    expect(value('MAX(3, {Price}, 1, 2)')).toBe(3);
    expect(value('MIN({Price})')).toBeNull();
    expect(value('MAX({Due date}, TODAY())', { due: '2027-01-01' })).toBe('2027-01-01');
    expect(value('MIN({Due date}, TODAY())', { due: '2027-01-01' })).toBe('2026-03-10');
    expect(value('SUM(1, 2, 3.5)')).toBe(6.5);
    expect(value('AVERAGE(1, {Price}, 2)')).toBe(1.5);
    expect(value('AVERAGE({Price})')).toBeNull();
  });

  it('LEN, UPPER, LOWER, TRIM, CONCAT, TEXT', () => {
    expect(value('LEN("héllo 👋")')).toBe(7);
    expect(value('LEN({Name})')).toBe(0);
    expect(value('UPPER("straße")')).toBe('STRASSE');
    expect(value('LOWER("ÀB")')).toBe('àb');
    expect(value('TRIM("  a b  ")')).toBe('a b');
    expect(value('TRIM("   ")')).toBeNull();
    expect(value('UPPER({Name})')).toBeNull();
    expect(value('CONCAT("a", 1, true, {Name}, {Due date})', { due: '2026-01-02' })).toBe(
      'a1Yes2026-01-02',
    );
    expect(value('TEXT(1234.5)')).toBe('1234.5');
    expect(value('TEXT({Tags})', { tags: ['x', 'y'] })).toBe('x, y');
    expect(value('TEXT({Price})')).toBeNull();
  });

  it('CONTAINS looks into text or a list, ignoring case', () => {
    expect(value('CONTAINS("Buy milk", "MILK")')).toBe(true);
    expect(value('CONTAINS("Buy milk", "bread")')).toBe(false);
    expect(value('CONTAINS({Tags}, "urgent")', { tags: ['Urgent', 'Home'] })).toBe(true);
    expect(value('CONTAINS({Tags}, "urg")', { tags: ['Urgent'] })).toBe(false);
    expect(value('CONTAINS({Name}, "a")')).toBe(false);
    expect(value('CONTAINS("abc", {Name})')).toBe(false);
  });

  it('IS_EMPTY, COALESCE, COUNT', () => {
    expect(value('COALESCE({Name}, {Status}, "none")', { status: 'Open' })).toBe('Open');
    expect(value('COALESCE({Name}, "none")')).toBe('none');
    expect(value('COALESCE({Price}, {Quantity})')).toBeNull();
    expect(value('COALESCE(1, 1 / 0)')).toBe(1);
    expect(value('COUNT({Tags})', { tags: ['a', 'b'] })).toBe(2);
    expect(value('COUNT({Tags})')).toBe(0);
  });

  it('TODAY and NOW come from the environment', () => {
    expect(value('TODAY()')).toBe('2026-03-10');
    expect(value('NOW()')).toBe('2026-03-10T12:30:00.000Z');
    expect(value('TEXT(NOW())', {}, { ...ENV, timeZone: 'Asia/Kolkata' })).toBe('2026-03-10 18:00');
    expect(runtimeError('TODAY()', {}, { ...ENV, today: 'soon' })).toBe(
      'Today’s date isn’t known here.',
    );
    expect(runtimeError('NOW()', {}, { ...ENV, now: NaN })).toBe(
      'The current time isn’t known here.',
    );
  });

  it('DAYS_SINCE, DAYS_UNTIL, DAYS_BETWEEN, IS_OVERDUE', () => {
    const due = { due: '2026-03-01' };
    expect(value('DAYS_SINCE({Due date})', due)).toBe(9);
    expect(value('DAYS_UNTIL({Due date})', due)).toBe(-9);
    expect(value('DAYS_BETWEEN({Due date}, TODAY())', due)).toBe(9);
    expect(value('DAYS_BETWEEN(TODAY(), {Due date})', due)).toBe(-9);
    expect(value('IS_OVERDUE({Due date})', due)).toBe(true);
    expect(value('IS_OVERDUE(TODAY())')).toBe(false);
    expect(value('IS_OVERDUE({Due date})')).toBe(false);
    expect(value('DAYS_SINCE({Due date})')).toBeNull();
    expect(value('DAYS_BETWEEN({Due date}, {Due date})')).toBeNull();
  });

  it('ADD_DAYS, YEAR, MONTH, DAY, WEEKDAY', () => {
    expect(value('ADD_DAYS({Due date}, 1)', { due: '2028-02-28' })).toBe('2028-02-29');
    expect(value('ADD_DAYS({Due date}, -365)', { due: '2026-01-01' })).toBe('2025-01-01');
    expect(value('ADD_DAYS({Starts at}, 1)', { at: '2026-03-10T23:00:00.000Z' })).toBe(
      '2026-03-11',
    );
    expect(runtimeError('ADD_DAYS(TODAY(), 1.5)')).toBe('Add a whole number of days, like 7.');
    expect(runtimeError('ADD_DAYS(TODAY(), 3000000)')).toBe(
      'That date is out of range: use years 1 to 9999.',
    );
    expect(value('YEAR(TODAY()) * 10000 + MONTH(TODAY()) * 100 + DAY(TODAY())')).toBe(20260310);
    expect(value('WEEKDAY(TODAY())')).toBe(2);
    expect(value('WEEKDAY({Due date})', { due: '2026-03-15' })).toBe(7);
    expect(value('WEEKDAY({Due date})', { due: '2026-03-16' })).toBe(1);
    expect(value('YEAR({Due date})', { due: '0001-01-01' })).toBe(1);
  });
});

describe('runtime errors are values', () => {
  it('says when it divided by zero or went out of range', () => {
    expect(runtimeError('1 / 0')).toBe('Divided by zero.');
    expect(runtimeError('5 % (2 - 2)')).toBe('Divided by zero.');
    expect(runtimeError('9007199254740991 + 1')).toBe('The result is too large.');
    expect(runtimeError('{Price} * {Price}', { price: 9e15 })).toBe('The result is too large.');
    expect(runtimeError('SUM(9007199254740991, 1, -1)')).toBe('The result is too large.');
  });

  it('says when the time zone is unknown, only where a day is needed', () => {
    const env = { ...ENV, timeZone: 'Mars/Olympus' };
    const at = { at: '2026-03-10T10:00:00.000Z' };
    expect(runtimeError('DAY({Starts at})', at, env)).toBe('Unknown time zone “Mars/Olympus”.');
    expect(value('DAY({Due date})', { due: '2026-03-04' }, env)).toBe(4);
  });

  it('passes a formula field’s error on to the formulas that use it', () => {
    const fields = [
      ...FIELDS,
      { id: 'ratio', name: 'Ratio', type: 'formula', formula: '{Price} / {Quantity}' },
      { id: 'label', name: 'Label', type: 'formula', formula: '"Ratio " & {Ratio}' },
    ];
    const results = evaluateFormulas(compileCollectionFormulas(fields), { price: 1, qty: 0 }, ENV);
    expect(results).toEqual({
      ratio: { error: 'Divided by zero.' },
      label: { error: 'Divided by zero.' },
    });
  });
});

describe('time zones', () => {
  // 2026-11-29T11:30Z is 00:30 on the 30th in Auckland (UTC+13) and 03:30 on the 29th in Los Angeles.
  const late = { at: '2026-11-29T11:30:00.000Z' };
  // 2026-11-29T05:00Z is 18:00 on the 29th in Auckland and 21:00 on the 28th in Los Angeles.
  const early = { at: '2026-11-29T05:00:00.000Z' };
  const auckland = { ...ENV, timeZone: 'Pacific/Auckland' };
  const losAngeles = { ...ENV, timeZone: 'America/Los_Angeles' };

  it('reads a date and time’s day in the evaluation’s time zone', () => {
    expect(value('DAY({Starts at})', late, auckland)).toBe(30);
    expect(value('DAY({Starts at})', late, losAngeles)).toBe(29);
    expect(value('DAY({Starts at})', early, auckland)).toBe(29);
    expect(value('DAY({Starts at})', early, losAngeles)).toBe(28);
    expect(value('TEXT({Starts at})', late, auckland)).toBe('2026-11-30 00:30');
    expect(value('TEXT({Starts at})', late, losAngeles)).toBe('2026-11-29 03:30');
    expect(value('{Starts at}', late, auckland)).toBe('2026-11-29T11:30:00.000Z');
  });

  it('counts days across a change of clocks in whole days', () => {
    const fields = [
      { id: 'a', name: 'A', type: 'dateTime' },
      { id: 'b', name: 'B', type: 'dateTime' },
      { id: 'f', name: 'F', type: 'formula', formula: 'DAYS_BETWEEN({A}, {B})' },
    ];
    const compiled = compileCollectionFormulas(fields);
    // Noon to noon across the spring change in Los Angeles (2026-03-08): 47 hours, two days.
    const spring = { a: '2026-03-07T20:00:00.000Z', b: '2026-03-09T19:00:00.000Z' };
    expect(evaluateFormulas(compiled, spring, losAngeles).f).toEqual({ value: 2 });
    // Noon to noon across the autumn change (2026-11-01): 49 hours, two days.
    const autumn = { a: '2026-10-31T19:00:00.000Z', b: '2026-11-02T20:00:00.000Z' };
    expect(evaluateFormulas(compiled, autumn, losAngeles).f).toEqual({ value: 2 });
    // Auckland's clocks went back on 2026-04-05.
    const auckland2 = { a: '2026-04-03T23:00:00.000Z', b: '2026-04-06T00:00:00.000Z' };
    expect(evaluateFormulas(compiled, auckland2, auckland).f).toEqual({ value: 2 });
    expect(value('DAYS_BETWEEN({Due date}, TODAY())', { due: '2026-03-01' }, losAngeles)).toBe(9);
  });
});

describe('problems, with the characters they point at', () => {
  it('asks for a formula when there is none', () => {
    for (const source of ['', '   ']) {
      expect(problem(source)).toEqual({
        message: 'Write a formula, like {Price} * {Quantity}.',
        at: source,
        start: 0,
        end: source.length,
      });
    }
  });

  it('names an unknown field and the fields there are, the likely one first', () => {
    const fields = FIELDS.slice(0, 2);
    expect(problem('{Prise} * 2', fields)).toEqual({
      message: 'Unknown field {Prise}. Fields here: Price, Quantity.',
      at: '{Prise}',
      start: 0,
      end: 7,
    });
    expect(problem('2 * {Quantty}', fields)?.message).toBe(
      'Unknown field {Quantty}. Fields here: Quantity, Price.',
    );
    expect(problem('{Zebra}')?.message).toBe(
      'Unknown field {Zebra}. Fields here: Price, Quantity, Name, Done, Due date, Starts at, and 3 more.',
    );
    expect(problem('{X}', [])?.message).toBe(
      'Unknown field {X}: this collection has no other fields yet.',
    );
  });

  it('counts a function’s values', () => {
    expect(problem('IF({Done}, 1)')).toMatchObject({
      message: 'IF needs 3 values, got 2.',
      at: 'IF({Done}, 1)',
    });
    expect(problem('ROUND(1, 2, 3)')?.message).toBe('ROUND needs 1 or 2 values, got 3.');
    expect(problem('ABS()')?.message).toBe('ABS needs 1 value, got 0.');
    expect(problem('SUM()')?.message).toBe('SUM needs at least 1 value, got 0.');
    expect(problem('COALESCE(1)')?.message).toBe('COALESCE needs at least 2 values, got 1.');
    expect(problem('TODAY(1)')?.message).toBe('TODAY takes no values: write TODAY().');
  });

  it('says which value of a function has the wrong type', () => {
    expect(problem('LEN({Price})')).toMatchObject({
      message: 'LEN needs text, got a number: use TEXT(…) to make it text.',
      at: '{Price}',
    });
    expect(problem('ROUND(1, "2")')).toMatchObject({
      message: 'ROUND needs a number as its second value, got text.',
      at: '"2"',
    });
    expect(problem('IF(1, 2, 3)')?.message).toBe(
      'IF needs a yes/no value as its first value, got a number.',
    );
    expect(problem('SUM(1, {Name})')).toMatchObject({
      message: 'SUM needs numbers, got text.',
      at: '{Name}',
    });
    expect(problem('DAYS_SINCE({Name})')?.message).toBe('DAYS_SINCE needs a date, got text.');
    expect(problem('CONTAINS(1, "a")')?.message).toBe(
      'CONTAINS needs text or a list as its first value, got a number: use TEXT(…) to make it text.',
    );
    expect(problem('COUNT({Name})')?.message).toBe('COUNT needs a list, got text.');
    expect(problem('IF({Done}, 1, "one")')).toMatchObject({
      message:
        'IF needs both results of one type, got a number and text: use TEXT(…) to make both text.',
      at: '"one"',
    });
    expect(problem('MIN(1, {Due date})')?.message).toBe(
      'MIN needs all its values of one type, got a number and a date.',
    );
    expect(problem('MAX({Name})')?.message).toBe('MAX needs numbers or dates, got text.');
  });

  it('explains operators used on the wrong types', () => {
    expect(problem('{Price} + {Name}')).toMatchObject({
      message: 'Can’t add text to a number: use & to join text.',
      at: '{Name}',
    });
    expect(problem('{Name} + 1')?.message).toBe('Can’t add a number to text: use & to join text.');
    expect(problem('{Due date} + 7')).toMatchObject({
      message: 'Can’t add a number to a date: use ADD_DAYS(date, days).',
      at: '{Due date}',
    });
    expect(problem('{Due date} - TODAY()')).toMatchObject({
      message: 'Can’t subtract a date from a date: use DAYS_BETWEEN(start, end).',
      at: '{Due date} - TODAY()',
    });
    expect(problem('{Done} * 2')?.message).toBe('Can’t multiply a yes/no value by a number.');
    expect(problem('-{Name}')?.message).toBe('A minus sign needs a number after it, got text.');
    expect(problem('{Price} = "12"')).toMatchObject({
      message: 'Can’t compare a number with text: use TEXT(…) to compare them as text.',
      at: '{Price} = "12"',
    });
    expect(problem('{Done} < true')?.message).toBe(
      'Can’t put yes/no values in order: use = or !=.',
    );
    expect(problem('{Price} > 1 and {Price}')).toMatchObject({
      message: 'and needs yes/no values on both sides, got a number.',
      at: '{Price}',
      start: 16,
    });
  });

  it('points at the first syntax problem', () => {
    expect(problem('1 + ROUND(2')).toMatchObject({
      message: 'Missing ) to close ROUND( at 5.',
      at: 'ROUND(',
    });
    expect(problem('(1 + 2')).toMatchObject({ message: 'Missing ) to close ( at 1.', at: '(' });
    expect(problem('round(')).toMatchObject({ message: 'Missing ) to close round( at 1.' });
    expect(problem('{Price} +')).toMatchObject({ message: 'Expected a value after +.', at: '+' });
    expect(problem('* 2')).toMatchObject({ message: 'Expected a value before *.', at: '*' });
    expect(problem('{Price} {Quantity}')).toMatchObject({
      message: 'Expected an operator before {Quantity}.',
      at: '{Quantity}',
    });
    expect(problem('MAX(1 2)')?.message).toBe('Expected an operator or a comma before 2.');
    expect(problem('MAX(1,)')?.message).toBe('Expected a value after the comma.');
    expect(problem('MAX(,1)')?.message).toBe('Expected a value before the comma.');
    expect(problem('1, 2')?.message).toBe(
      'Commas only go between a function’s values, like ROUND({Price}, 2).',
    );
    expect(problem('1 + 2)')).toMatchObject({ message: 'This ) has no ( to close.', at: ')' });
    expect(problem('()')).toMatchObject({ message: 'Write something between ( and ).', at: '()' });
    expect(problem('Price * 2')).toMatchObject({
      message: 'Put a field’s name in braces, like {Price}.',
      at: 'Price',
    });
    expect(problem('1 + TODAY')?.message).toBe('TODAY needs brackets: TODAY().');
    expect(problem('FLOR(1.5)')).toMatchObject({
      message: 'Unknown function FLOR: did you mean FLOOR?',
      at: 'FLOR',
    });
    expect(problem('ZAP(1)')?.message).toBe('Unknown function ZAP.');
    expect(problem('1 + 2 +')?.at).toBe('+');
  });

  it('points at text that does not read as a formula', () => {
    expect(problem('"abc')).toMatchObject({ message: 'Missing " to close the text at 1.' });
    expect(problem('{Price')).toMatchObject({
      message: 'Missing } to close the field’s name at 1.',
    });
    expect(problem('{ }')?.message).toBe('Write a field’s name between { and }, like {Price}.');
    expect(problem('"a\\n"')).toMatchObject({
      message: 'Inside text, write \\" for a quote and \\\\ for a backslash.',
      at: '\\n',
    });
    expect(problem('{a\\b}')?.message).toBe(
      'Inside a field’s name, write \\} for } and \\\\ for a backslash.',
    );
    expect(problem('1 == 1')).toMatchObject({ message: 'Use = to compare, not ==.', at: '==' });
    expect(problem('1 <> 1')?.message).toBe('Use != for “not equal”.');
    expect(problem('true && true')?.message).toBe('Use and instead of &&.');
    expect(problem('true || true')?.message).toBe('Use or instead of ||.');
    expect(problem('!true')?.message).toBe(
      'Use not to turn a yes/no value around, or != for “not equal”.',
    );
    expect(problem("'a'")?.message).toBe('Write text in straight double quotes, like "Done".');
    expect(problem('.5')?.message).toBe('Write decimals with a digit before the point, like 0.5.');
    expect(problem('1.2.3')).toMatchObject({ message: 'Write a number like 12 or 3.5.' });
    expect(problem('1 # 2')).toMatchObject({ message: '“#” can’t be used in a formula.', at: '#' });
    expect(problem('1 + 😀')).toMatchObject({ at: '😀' });
    expect(problem('99999999999999999')?.message).toBe('Use numbers up to 9,007,199,254,740,991.');
  });

  it('reports the problem that comes first, syntax before types', () => {
    expect(problem('1 + + "open')?.message).toBe('Expected a value after +.');
    expect(problem('{Nope} + "a" * 2')?.message).toMatch(/^Unknown field \{Nope\}/);
    expect(problem('"a" * 2 + {Nope}')?.message).toBe('Can’t multiply text by a number.');
    expect(problem('"a" * 2 + (')?.message).toBe('Missing ) to close ( at 11.');
  });
});

describe('limits', () => {
  it('refuses a formula over 1,000 characters', () => {
    const longest = `"${'a'.repeat(FORMULA_LIMITS.sourceLength - 2)}"`;
    expect(checkFormula(longest, FIELDS).ok).toBe(true);
    expect(problem(`${longest} `)).toMatchObject({
      message: 'This formula is too long: use at most 1,000 characters.',
      start: 1_000,
      end: 1_001,
    });
  });

  it('refuses brackets nested more than 32 deep', () => {
    const nested = (depth: number) => `${'('.repeat(depth)}1${')'.repeat(depth)}`;
    expect(checkFormula(nested(32), FIELDS).ok).toBe(true);
    expect(problem(nested(33))).toMatchObject({
      message: 'This formula has too many brackets inside brackets: use at most 32 levels.',
      start: 32,
      end: 33,
    });
    const calls = (depth: number) => `${'ABS('.repeat(depth)}1${')'.repeat(depth)}`;
    expect(checkFormula(calls(32), FIELDS).ok).toBe(true);
    expect(problem(calls(33))?.at).toBe('ABS(');
  });

  it('refuses more than 200 values, operators and functions', () => {
    // n ones joined by + are n values and n - 1 operators.
    const sum = (n: number) => Array(n).fill('1').join('+');
    expect(checkFormula(sum(100), FIELDS).ok).toBe(true);
    expect(problem(sum(101))?.message).toBe(
      'This formula is too big: use at most 200 values, operators and functions.',
    );
    expect(FORMULA_LIMITS).toEqual({ sourceLength: 1_000, depth: 32, nodes: 200 });
  });

  it('is not slowed or broken by a long run of minus signs', () => {
    expect(problem('-'.repeat(998) + '1')?.message).toMatch(/too big/);
  });
});

describe('formula fields that use each other', () => {
  const formula = (id: string, name: string, source: string): FormulaField => ({
    id,
    name,
    type: 'formula',
    formula: source,
  });

  it('computes each after the formulas it uses, whatever their order', () => {
    const fields = [
      formula('label', 'Label', '{Name} & ": " & {Total}'),
      formula('total', 'Total', '{Subtotal} * 1.2'),
      formula('sub', 'Subtotal', '{Price} * {Quantity}'),
      ...FIELDS,
    ];
    const compiled = compileCollectionFormulas(fields);
    expect(compiled.errors).toEqual({});
    expect(compiled.order.map((f) => f.fieldId)).toEqual(['sub', 'total', 'label']);
    expect(compiled.order.map((f) => f.type)).toEqual(['number', 'number', 'text']);
    expect(compiled.order[2]?.references).toEqual(['name', 'total']);
    const results = evaluateFormulas(compiled, { name: 'Tea', price: 2.5, qty: 4 }, ENV);
    expect(results).toEqual({
      sub: { value: 10 },
      total: { value: 12 },
      label: { value: 'Tea: 12' },
    });
  });

  it('reports formulas that refer to each other, and the ones that use them', () => {
    const fields = [
      ...FIELDS,
      formula('a', 'A', '{B} + 1'),
      formula('b', 'B', '{Price} + {A}'),
      formula('self', 'Self', '1 + {self}'),
      formula('x', 'X', '{Y}'),
      formula('y', 'Y', '{Z}'),
      formula('z', 'Z', '{X} * 2'),
      formula('uses', 'Uses', '{A} * 2'),
      formula('fine', 'Fine', '{Price} * 2'),
    ];
    const { errors, order } = compileCollectionFormulas(fields);
    expect(order.map((f) => f.fieldId)).toEqual(['fine']);
    const two = '{A} and {B} refer to each other, so neither can be computed.';
    expect(errors.a).toEqual({ message: two, start: 0, end: 3 });
    expect(errors.b).toEqual({ message: two, start: 10, end: 13 });
    expect(errors.self).toEqual({
      message: '{Self} refers to itself, so it can’t be computed.',
      start: 4,
      end: 10,
    });
    expect(errors.z?.message).toBe(
      '{X}, {Y} and {Z} refer to each other in a loop, so none of them can be computed.',
    );
    expect(errors.uses).toEqual({
      message: '{A} has a problem of its own: fix it first.',
      start: 0,
      end: 3,
    });
    const results = evaluateFormulas(compileCollectionFormulas(fields), { price: 1 }, ENV);
    expect(results.fine).toEqual({ value: 2 });
    expect(results.a).toEqual({ error: two });
  });

  it('reports a reference to a deleted field on the formula that has it', () => {
    const fields = [
      { id: 'price', name: 'Price', type: 'number' },
      formula('total', 'Total', '{Price} * {Quantity}'),
      formula('broken', 'Broken', ''),
    ];
    const { errors, order } = compileCollectionFormulas(fields);
    expect(order).toEqual([]);
    expect(errors.total).toEqual({
      message: 'Unknown field {Quantity}. Fields here: Price, Broken.',
      start: 10,
      end: 20,
    });
    expect(errors.broken?.message).toBe('Write a formula, like {Price} * {Quantity}.');
    expect(compileCollectionFormulas([{ id: 'f', name: 'F', type: 'formula' }]).errors.f).toEqual({
      message: 'Write a formula, like {Price} * {Quantity}.',
      start: 0,
      end: 0,
    });
  });

  it('checks a formula being written as the field it is for', () => {
    const fields = [
      ...FIELDS,
      formula('total', 'Total', '{Price} * 2'),
      formula('g', 'G', '{Total}'),
    ];
    expect(checkFormula('{Total} + 1', fields)).toEqual(
      expect.objectContaining({ ok: true, type: 'number', references: ['total'] }),
    );
    expect(checkFormula('{Total} + 1', fields, { fieldId: 'total' })).toEqual({
      ok: false,
      error: { message: '{Total} refers to itself, so it can’t be computed.', start: 0, end: 7 },
    });
    expect(checkFormula('{G}', fields, { fieldId: 'total' })).toMatchObject({
      ok: false,
      error: { message: '{Total} and {G} refer to each other, so neither can be computed.' },
    });
    expect(checkFormula('{Price} > 1', fields, { fieldId: 'new' })).toMatchObject({
      ok: true,
      type: 'boolean',
    });
  });

  it('gives a formula field its formula’s type', () => {
    const fields = [
      ...FIELDS,
      formula('when', 'When', 'ADD_DAYS({Due date}, 7)'),
      formula('late', 'Late', 'IS_OVERDUE({When})'),
    ];
    const compiled = compileCollectionFormulas(fields);
    expect(compiled.order.map((f) => [f.fieldId, f.type])).toEqual([
      ['when', 'date'],
      ['late', 'boolean'],
    ]);
    expect(evaluateFormulas(compiled, { due: '2026-03-01' }, ENV)).toEqual({
      when: { value: '2026-03-08' },
      late: { value: true },
    });
  });
});

describe('printFormula', () => {
  const printed = (source: string) => {
    const parsed = parseFormula(source);
    if (!parsed.ok) throw new Error(parsed.error.message);
    return printFormula(parsed.ast);
  };

  it('writes brackets only where precedence needs them', () => {
    expect(printed('((1 + 2)) * 3')).toBe('(1 + 2) * 3');
    expect(printed('1+(2*3)')).toBe('1 + 2 * 3');
    expect(printed('1 - (2 - 3)')).toBe('1 - (2 - 3)');
    expect(printed('(1 - 2) - 3')).toBe('1 - 2 - 3');
    expect(printed('-(1 + 2)')).toBe('-(1 + 2)');
    expect(printed('- -1')).toBe('--1');
    expect(printed('not {Done} OR false')).toBe('NOT({Done}) or false');
    expect(printed('round( {a\\}b} ,2 )')).toBe('ROUND({a\\}b}, 2)');
    expect(printed('"say \\"hi\\""')).toBe('"say \\"hi\\""');
  });
});

describe('renameFieldInFormula', () => {
  it('rewrites references to the field and nothing else', () => {
    expect(renameFieldInFormula('{Price}*{price} + {Prices}', 'Price', 'Cost')).toBe(
      '{Cost}*{Cost} + {Prices}',
    );
    expect(renameFieldInFormula('IF( { price } > 1 , "{Price}", "")', 'Price', 'Cost')).toBe(
      'IF( {Cost} > 1 , "{Price}", "")',
    );
  });

  it('escapes a new name with } or \\', () => {
    const renamed = renameFieldInFormula('{A} + 1', 'A', 'Odd } \\ name');
    expect(renamed).toBe('{Odd \\} \\\\ name} + 1');
    const fields = [{ id: 'odd', name: 'Odd } \\ name', type: 'number' }];
    expect(checkFormula(renamed, fields)).toMatchObject({ ok: true, references: ['odd'] });
  });

  it('leaves alone a reference another field’s exact name claims, given the fields', () => {
    const fields = [
      { id: 'upper', name: 'Cost', type: 'number' },
      { id: 'lower', name: 'cost', type: 'number' },
    ];
    expect(renameFieldInFormula('{Cost} + {cost} + {COST}', 'Cost', 'Price', fields)).toBe(
      '{Price} + {cost} + {Price}',
    );
  });

  it('renames up to where the formula stops making sense, and keeps the rest', () => {
    expect(renameFieldInFormula('{A} & "open {A}', 'A', 'B')).toBe('{B} & "open {A}');
    expect(renameFieldInFormula('', 'A', 'B')).toBe('');
  });
});

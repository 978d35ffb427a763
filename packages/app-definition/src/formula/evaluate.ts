import { callValue } from './calls';
import type { TypedNode } from './checker';
import type { CompiledFormulas } from './compile';
import { parseDate } from './dates';
import type { BinaryOperator, FormulaEnv, FormulaResult, FormulaType } from './types';
import {
  checkedNumber,
  dayInZone,
  emptyText,
  Fault,
  fault,
  type Internal,
  outputValue,
  readStored,
  textOf,
  visibleNumber,
} from './values';

/** What one evaluation reads: the record's values, the results so far, and the environment. */
export interface EvaluationContext {
  values: Readonly<Record<string, unknown>>;
  computed: Map<string, Internal | Fault>;
  env: FormulaEnv;
  /** `env.today` as a day number, or null when it is not a date. */
  today: number | null;
}

export type Evaluate = (node: TypedNode) => Internal;

function fieldValue(node: TypedNode & { kind: 'field' }, context: EvaluationContext): Internal {
  if (!node.stored) {
    const result = context.computed.get(node.id) ?? null;
    if (result instanceof Fault) throw result;
    return result;
  }
  return Object.hasOwn(context.values, node.id)
    ? readStored(context.values[node.id], node.type)
    : null;
}

function arithmetic(operator: BinaryOperator, a: number, b: number): number {
  switch (operator) {
    case '+':
      return checkedNumber(a + b);
    case '-':
      return checkedNumber(a - b);
    case '*':
      return checkedNumber(a * b);
    case '/':
      return b === 0 ? fault('Divided by zero.') : checkedNumber(a / b);
    default:
      return b === 0 ? fault('Divided by zero.') : checkedNumber(a % b);
  }
}

function sameItems(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, i) => item.toLowerCase() === b[i]?.toLowerCase());
}

/**
 * -1, 0 or 1 for two non-empty values of comparable types: numbers at their visible digits, text
 * ignoring case (in character-code order, the same on every device), yes/no and lists only equal
 * or not (the check refuses ordering them), a date and a date and time by their days.
 */
function compare(
  a: Internal,
  aType: FormulaType,
  b: Internal,
  bType: FormulaType,
  context: EvaluationContext,
): number {
  let [x, y] = [a, b];
  if (aType !== bType) {
    // A date and a date and time: compare days, the date and time's in the evaluation's zone.
    x = aType === 'dateTime' ? dayInZone(a as number, context.env.timeZone) : a;
    y = bType === 'dateTime' ? dayInZone(b as number, context.env.timeZone) : b;
  }
  if (aType === 'number') [x, y] = [visibleNumber(x as number), visibleNumber(y as number)];
  if (aType === 'text') [x, y] = [(x as string).toLowerCase(), (y as string).toLowerCase()];
  if (aType === 'list') return sameItems(x as readonly string[], y as readonly string[]) ? 0 : 1;
  return x === y ? 0 : (x as number | string) < (y as number | string) ? -1 : 1;
}

/**
 * Empty is equal only to empty (so `{Status} != "Done"` holds for a record without a status), and
 * an order with an empty side never holds.
 */
function comparison(
  node: TypedNode & { kind: 'binary' },
  a: Internal,
  b: Internal,
  context: EvaluationContext,
): boolean {
  const { operator } = node;
  if (a === null || b === null) {
    if (operator === '=') return a === b;
    if (operator === '!=') return a !== b;
    return false;
  }
  const order = compare(a, node.left.type, b, node.right.type, context);
  switch (operator) {
    case '=':
      return order === 0;
    case '!=':
      return order !== 0;
    case '<':
      return order < 0;
    case '<=':
      return order <= 0;
    case '>':
      return order > 0;
    default:
      return order >= 0;
  }
}

function binaryValue(
  node: TypedNode & { kind: 'binary' },
  context: EvaluationContext,
  evaluate: Evaluate,
): Internal {
  const { operator } = node;
  // `and` and `or` stop once the answer is known: what is not needed is not computed.
  if (operator === 'and') return evaluate(node.left) === true && evaluate(node.right) === true;
  if (operator === 'or') return evaluate(node.left) === true || evaluate(node.right) === true;
  const a = evaluate(node.left);
  const b = evaluate(node.right);
  if (operator === '&') {
    const zone = context.env.timeZone;
    return emptyText(textOf(a, node.left.type, zone) + textOf(b, node.right.type, zone));
  }
  if (node.type === 'number')
    return a === null || b === null ? null : arithmetic(operator, a as number, b as number);
  return comparison(node, a, b, context);
}

/** A checked formula's value for one record, or the `Fault` thrown that says why there is none. */
export function evaluateNode(node: TypedNode, context: EvaluationContext): Internal {
  const evaluate: Evaluate = (child) => evaluateNode(child, context);
  switch (node.kind) {
    case 'literal':
      return node.value;
    case 'field':
      return fieldValue(node, context);
    case 'negate': {
      const value = evaluate(node.operand);
      return value === null ? null : checkedNumber(-(value as number));
    }
    case 'binary':
      return binaryValue(node, context, evaluate);
    case 'call':
      return callValue(node, context, evaluate);
  }
}

/** `env.today` as a day number, read once per day's text: a list evaluates thousands of records. */
let lastToday: { text: unknown; day: number | null } = { text: null, day: null };
function todayOf(env: FormulaEnv): number | null {
  if (lastToday.text !== env.today)
    lastToday = {
      text: env.today,
      day: typeof env.today === 'string' ? parseDate(env.today) : null,
    };
  return lastToday.day;
}

/**
 * The value of every formula field of one record, by field id. Nothing is read from the device:
 * today, now and the time zone come from `env`, so every device and the editor's preview agree.
 * A value that cannot be computed is `{ error }`, never an exception; so is a field that could
 * not be compiled.
 */
export function evaluateFormulas(
  compiled: CompiledFormulas,
  values: Readonly<Record<string, unknown>>,
  env: FormulaEnv,
): Record<string, FormulaResult> {
  const context: EvaluationContext = { values, computed: new Map(), env, today: todayOf(env) };
  const results: Record<string, FormulaResult> = {};
  for (const formula of compiled.order) {
    try {
      const value = evaluateNode(formula.tree, context);
      context.computed.set(formula.fieldId, value);
      results[formula.fieldId] = { value: outputValue(value, formula.type) };
    } catch (error) {
      if (!(error instanceof Fault)) throw error;
      context.computed.set(formula.fieldId, error);
      results[formula.fieldId] = { error: error.message };
    }
  }
  for (const [fieldId, error] of Object.entries(compiled.errors)) {
    results[fieldId] = { error: error.message };
  }
  return results;
}

import { likelyMeant } from './closest';
import {
  FUNCTION_NAMES,
  functionSpec,
  type FunctionSpec,
  paramKind,
  sameTypesOf,
} from './functions';
import {
  type BinaryOperator,
  describeType,
  type FormulaError,
  type FormulaNode,
  type FormulaType,
  type Span,
} from './types';
import type { Internal } from './values';

/** A checked formula: every node's type known and every field resolved to its id. */
export type TypedNode = { type: FormulaType } & (
  | { kind: 'literal'; value: Internal }
  /** `stored`: the record's value; otherwise another formula field's result. */
  | { kind: 'field'; id: string; stored: boolean }
  | { kind: 'negate'; operand: TypedNode }
  | { kind: 'binary'; operator: BinaryOperator; left: TypedNode; right: TypedNode }
  | { kind: 'call'; name: string; args: TypedNode[] }
);

/** The field a reference names, or the message saying why there is none to use. */
export type ResolvedField =
  { id: string; type: FormulaType; stored: boolean } | { problem: string };

export type FieldLookup = (name: string) => ResolvedField;

export class CheckProblem extends Error {
  constructor(readonly problem: FormulaError) {
    super(problem.message);
  }
}

function fail(message: string, span: Span): never {
  throw new CheckProblem({ message, start: span.start, end: span.end });
}

const DAYS: readonly FormulaType[] = ['date', 'dateTime'];
const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth'];
const PLURALS: Record<string, string> = {
  number: 'numbers',
  text: 'text',
  boolean: 'yes/no values',
  date: 'dates',
  dateTime: 'dates and times',
  list: 'lists',
  day: 'dates',
};

const isDay = (type: FormulaType) => DAYS.includes(type);
const TEXT_HINT = ': use TEXT(…) to make it text';

// --- Operators ---------------------------------------------------------------------------------

function arithmeticProblem(
  operator: BinaryOperator,
  left: FormulaType,
  right: FormulaType,
): string {
  const [l, r] = [describeType(left), describeType(right)];
  switch (operator) {
    case '+':
      if (left === 'text' || right === 'text') return `Can’t add ${r} to ${l}: use & to join text.`;
      if (isDay(left) && right === 'number')
        return `Can’t add a number to ${l}: use ADD_DAYS(date, days).`;
      return `Can’t add ${r} to ${l}.`;
    case '-':
      if (isDay(left) && isDay(right)) {
        return `Can’t subtract ${r} from ${l}: use DAYS_BETWEEN(start, end).`;
      }
      if (isDay(left) && right === 'number') {
        return `Can’t subtract a number from ${l}: use ADD_DAYS(date, -days).`;
      }
      return `Can’t subtract ${r} from ${l}.`;
    case '*':
      return `Can’t multiply ${l} by ${r}.`;
    case '/':
      return `Can’t divide ${l} by ${r}.`;
    default:
      return `Can’t take the remainder of ${l} divided by ${r}.`;
  }
}

/** Whether two types compare: the same, or a date with a date and time (compared by day). */
function comparable(left: FormulaType, right: FormulaType): boolean {
  return left === right || (isDay(left) && isDay(right));
}

function comparisonProblem(
  operator: BinaryOperator,
  left: FormulaType,
  right: FormulaType,
): string | null {
  if (!comparable(left, right)) {
    const hint = left === 'text' || right === 'text' ? ': use TEXT(…) to compare them as text' : '';
    return `Can’t compare ${describeType(left)} with ${describeType(right)}${hint}.`;
  }
  const ordered = operator !== '=' && operator !== '!=';
  if (ordered && (left === 'boolean' || left === 'list')) {
    return `Can’t put ${PLURALS[left]} in order: use = or !=.`;
  }
  return null;
}

/** The side that is not a number (the text side of text + number), or both when neither is. */
function arithmeticCulprit(
  node: FormulaNode & { kind: 'binary' },
  left: TypedNode,
  right: TypedNode,
): Span {
  if (left.type === 'number') return node.right;
  if (right.type === 'number') return node.left;
  if (left.type === 'text') return node.left;
  return right.type === 'text' ? node.right : node;
}

function binaryType(
  node: FormulaNode & { kind: 'binary' },
  left: TypedNode,
  right: TypedNode,
): FormulaType {
  const { operator } = node;
  if (operator === '&') return 'text';
  if (operator === 'and' || operator === 'or') {
    const wrong =
      left.type !== 'boolean' ? node.left : right.type !== 'boolean' ? node.right : null;
    if (wrong) {
      const got = wrong === node.left ? left.type : right.type;
      fail(`${operator} needs yes/no values on both sides, got ${describeType(got)}.`, wrong);
    }
    return 'boolean';
  }
  if (
    operator === '+' ||
    operator === '-' ||
    operator === '*' ||
    operator === '/' ||
    operator === '%'
  ) {
    if (left.type === 'number' && right.type === 'number') return 'number';
    return fail(
      arithmeticProblem(operator, left.type, right.type),
      arithmeticCulprit(node, left, right),
    );
  }
  const problem = comparisonProblem(operator, left.type, right.type);
  if (problem) fail(problem, node);
  return 'boolean';
}

// --- Calls -------------------------------------------------------------------------------------

function countWords(n: number): string {
  return `${n} value${n === 1 ? '' : 's'}`;
}

function arityProblem(spec: FunctionSpec, given: number): string | null {
  if (given >= spec.min && given <= spec.max) return null;
  const { name, min, max } = spec;
  if (max === 0) return `${name} takes no values: write ${name}().`;
  if (max === Infinity) return `${name} needs at least ${countWords(min)}, got ${given}.`;
  if (min === max) return `${name} needs ${countWords(min)}, got ${given}.`;
  return `${name} needs ${min} or ${countWords(max)}, got ${given}.`;
}

/** "LEN needs text", "ROUND needs a number as its second value", "SUM needs numbers". */
function needs(spec: FunctionSpec, index: number, what: string, plural: string): string {
  if (spec.max === Infinity) return `${spec.name} needs ${plural}`;
  if (spec.max === 1) return `${spec.name} needs ${what}`;
  const ordinal = ORDINALS[index] ?? `number ${index + 1}`;
  return `${spec.name} needs ${what} as its ${ordinal} value`;
}

function checkParam(spec: FunctionSpec, index: number, arg: TypedNode, at: FormulaNode): void {
  const kind = paramKind(spec, index);
  const got = describeType(arg.type);
  if (kind === 'any' || kind === 'same') return;
  if (kind === 'day') {
    if (!isDay(arg.type)) fail(`${needs(spec, index, 'a date', 'dates')}, got ${got}.`, at);
    return;
  }
  if (kind === 'textOrList') {
    if (arg.type !== 'text' && arg.type !== 'list') {
      fail(`${needs(spec, index, 'text or a list', 'text or lists')}, got ${got}${TEXT_HINT}.`, at);
    }
    return;
  }
  if (arg.type !== kind) {
    const hint = kind === 'text' ? TEXT_HINT : '';
    fail(
      `${needs(spec, index, describeType(kind), PLURALS[kind] as string)}, got ${got}${hint}.`,
      at,
    );
  }
}

/** The type a call's `same` values share, after checking they do share one. */
function sameType(
  spec: FunctionSpec,
  args: readonly TypedNode[],
  nodes: readonly FormulaNode[],
): FormulaType | null {
  let shared: FormulaType | null = null;
  const allowed = sameTypesOf(spec);
  args.forEach((arg, index) => {
    if (paramKind(spec, index) !== 'same') return;
    const at = nodes[index] as FormulaNode;
    if (!allowed.includes(arg.type)) {
      fail(`${spec.name} needs numbers or dates, got ${describeType(arg.type)}.`, at);
    }
    if (shared === null) {
      shared = arg.type;
    } else if (arg.type !== shared) {
      const hint =
        shared === 'text' || arg.type === 'text' ? ': use TEXT(…) to make both text' : '';
      const what = spec.name === 'IF' ? 'both results' : 'all its values';
      fail(
        `${spec.name} needs ${what} of one type, got ${describeType(shared)} and ${describeType(arg.type)}${hint}.`,
        at,
      );
    }
  });
  return shared;
}

function callType(node: FormulaNode & { kind: 'call' }, lookup: FieldLookup): TypedNode {
  const spec = functionSpec(node.name);
  if (!spec) {
    const nameSpan = { start: node.start, end: node.start + node.name.length };
    const meant = likelyMeant(node.name, FUNCTION_NAMES);
    fail(`Unknown function ${node.name}${meant ? `: did you mean ${meant}?` : '.'}`, nameSpan);
  }
  const args = node.args.map((arg) => typeOf(arg, lookup));
  const arity = arityProblem(spec, args.length);
  if (arity) fail(arity, node);
  args.forEach((arg, index) => checkParam(spec, index, arg, node.args[index] as FormulaNode));
  const shared = sameType(spec, args, node.args);
  const type = spec.returns === 'same' ? (shared ?? 'text') : spec.returns;
  return { kind: 'call', type, name: spec.name, args };
}

// --- Nodes -------------------------------------------------------------------------------------

/**
 * The checked tree of a parsed formula, or its first problem (thrown as a `CheckProblem`): the
 * values of each node are checked before the node itself, left to right, so the problem reported
 * is the first one in reading order.
 */
export function typeOf(node: FormulaNode, lookup: FieldLookup): TypedNode {
  switch (node.kind) {
    case 'number':
      return { kind: 'literal', type: 'number', value: node.value };
    case 'text':
      return { kind: 'literal', type: 'text', value: node.value === '' ? null : node.value };
    case 'boolean':
      return { kind: 'literal', type: 'boolean', value: node.value };
    case 'field': {
      const field = lookup(node.name);
      if ('problem' in field) return fail(field.problem, node);
      return { kind: 'field', ...field };
    }
    case 'negate': {
      const operand = typeOf(node.operand, lookup);
      if (operand.type !== 'number') {
        fail(`A minus sign needs a number after it, got ${describeType(operand.type)}.`, node);
      }
      return { kind: 'negate', type: 'number', operand };
    }
    case 'binary': {
      const left = typeOf(node.left, lookup);
      const right = typeOf(node.right, lookup);
      return {
        kind: 'binary',
        type: binaryType(node, left, right),
        operator: node.operator,
        left,
        right,
      };
    }
    case 'call':
      return callType(node, lookup);
  }
}

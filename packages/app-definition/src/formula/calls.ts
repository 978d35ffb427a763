import type { TypedNode } from './checker';
import { civilDate, isDayInRange, isInstantInRange, weekday } from './dates';
import type { Evaluate, EvaluationContext } from './evaluate';
import {
  checkedNumber,
  dayInZone,
  emptyText,
  fault,
  type Internal,
  textOf,
  visibleNumber,
} from './values';

type Call = TypedNode & { kind: 'call' };
type Implementation = (
  args: readonly TypedNode[],
  context: EvaluationContext,
  evaluate: Evaluate,
) => Internal;

/** ROUND's digits: past 15 a double has none left to round. */
const MAX_DIGITS = 15;

/**
 * `n` rounded to `digits` after the point, halves away from zero, on the 15 significant digits
 * people see of it (so ROUND(1.005, 2) is 1.01, though the double 1.005 is a hair below it). The
 * rounding is done on those decimal digits, and the result read back from text, which is exact.
 */
export function roundTo(n: number, digits: number): number {
  // A whole number to whole places or more is itself: skips the text below, which was the most
  // costly step of a list's formulas (ROUND over 5,000 records; docs/performance.md).
  if (n === 0 || !Number.isFinite(n) || (digits >= 0 && Number.isInteger(n))) return n;
  const [mantissa, exponentText] = Math.abs(n).toExponential(14).split('e') as [string, string];
  const significant = mantissa.replace('.', '');
  const kept = Number(exponentText) + 1 + digits;
  if (kept >= significant.length) return n;
  if (kept < 0) return 0;
  let whole = kept === 0 ? 0 : Number(significant.slice(0, kept));
  if ((significant[kept] as string) >= '5') whole += 1;
  const rounded = Number(`${whole}e${-digits}`);
  return n < 0 ? -rounded : rounded;
}

/** The day a date-like value is (a date and time's in the evaluation's zone), or null if empty. */
function dayOf(node: TypedNode, context: EvaluationContext, evaluate: Evaluate): number | null {
  const value = evaluate(node);
  if (value === null) return null;
  return node.type === 'dateTime'
    ? dayInZone(value as number, context.env.timeZone)
    : (value as number);
}

function today(context: EvaluationContext): number {
  return context.today ?? fault('Today’s date isn’t known here.');
}

function now(context: EvaluationContext): number {
  const value = context.env.now;
  const ms = typeof value === 'number' && Number.isFinite(value) ? Math.floor(value) : NaN;
  return isInstantInRange(ms) ? ms : fault('The current time isn’t known here.');
}

function numberArg(node: TypedNode | undefined, evaluate: Evaluate): number | null {
  return node ? (evaluate(node) as number | null) : null;
}

/** Every value of a call, in order, leaving out the empty ones. */
function present(args: readonly TypedNode[], evaluate: Evaluate): Array<Exclude<Internal, null>> {
  return args.map(evaluate).filter((value): value is Exclude<Internal, null> => value !== null);
}

/** A number function that keeps empty as empty. */
function numeric(apply: (n: number) => number): Implementation {
  return ([arg], _context, evaluate) => {
    const n = numberArg(arg, evaluate);
    return n === null ? null : checkedNumber(apply(n));
  };
}

/** A text function that keeps empty as empty. */
function textual(apply: (text: string) => string): Implementation {
  return ([arg], _context, evaluate) => {
    const text = evaluate(arg as TypedNode) as string | null;
    return text === null ? null : emptyText(apply(text));
  };
}

/** A function of one day that keeps empty as empty. */
function ofDay(apply: (day: number, context: EvaluationContext) => number): Implementation {
  return ([arg], context, evaluate) => {
    const day = dayOf(arg as TypedNode, context, evaluate);
    return day === null ? null : apply(day, context);
  };
}

function round(
  args: readonly TypedNode[],
  _context: EvaluationContext,
  evaluate: Evaluate,
): Internal {
  const n = numberArg(args[0], evaluate);
  const digits = numberArg(args[1], evaluate) ?? 0;
  if (!Number.isInteger(digits) || Math.abs(digits) > MAX_DIGITS) {
    fault(`ROUND takes a whole number of digits from -${MAX_DIGITS} to ${MAX_DIGITS}.`);
  }
  return n === null ? null : checkedNumber(roundTo(n, digits));
}

function extreme(pick: (a: number, b: number) => number): Implementation {
  return (args, _context, evaluate) => {
    const values = present(args, evaluate) as number[];
    return values.length === 0 ? null : values.reduce((a, b) => pick(a, b));
  };
}

function sum(
  args: readonly TypedNode[],
  _context: EvaluationContext,
  evaluate: Evaluate,
): Internal {
  // Checked at each step, so a total that only comes back into range is still refused.
  return present(args, evaluate).reduce<number>(
    (total, n) => checkedNumber(total + (n as number)),
    0,
  );
}

function average(
  args: readonly TypedNode[],
  _context: EvaluationContext,
  evaluate: Evaluate,
): Internal {
  const values = present(args, evaluate) as number[];
  if (values.length === 0) return null;
  const total = values.reduce((sum, n) => checkedNumber(sum + n), 0);
  return checkedNumber(total / values.length);
}

function contains(
  args: readonly TypedNode[],
  _context: EvaluationContext,
  evaluate: Evaluate,
): Internal {
  const [haystack, needle] = [
    evaluate(args[0] as TypedNode),
    evaluate(args[1] as TypedNode) as string | null,
  ];
  if (haystack === null || needle === null) return false;
  const wanted = needle.toLowerCase();
  if (Array.isArray(haystack))
    return haystack.some((item: string) => item.toLowerCase() === wanted);
  return (haystack as string).toLowerCase().includes(wanted);
}

function addDays(
  args: readonly TypedNode[],
  context: EvaluationContext,
  evaluate: Evaluate,
): Internal {
  const day = dayOf(args[0] as TypedNode, context, evaluate);
  const days = numberArg(args[1], evaluate);
  if (day === null || days === null) return null;
  if (!Number.isInteger(days)) fault('Add a whole number of days, like 7.');
  const result = day + days;
  return isDayInRange(result) ? result : fault('That date is out of range: use years 1 to 9999.');
}

function joined(
  args: readonly TypedNode[],
  context: EvaluationContext,
  evaluate: Evaluate,
): Internal {
  const zone = context.env.timeZone;
  return emptyText(args.map((arg) => textOf(evaluate(arg), arg.type, zone)).join(''));
}

/** Each function's evaluation; the checker has made sure of the number and types of values. */
const IMPLEMENTATIONS: Readonly<Record<string, Implementation>> = {
  // IF, AND, OR and COALESCE compute only the values they need, left to right.
  IF: ([condition, then, otherwise], _context, evaluate) =>
    evaluate((evaluate(condition as TypedNode) === true ? then : otherwise) as TypedNode),
  AND: (args, _context, evaluate) => args.every((arg) => evaluate(arg) === true),
  OR: (args, _context, evaluate) => args.some((arg) => evaluate(arg) === true),
  NOT: ([arg], _context, evaluate) => evaluate(arg as TypedNode) !== true,
  ROUND: round,
  FLOOR: numeric((n) => Math.floor(visibleNumber(n))),
  CEIL: numeric((n) => Math.ceil(visibleNumber(n))),
  ABS: numeric(Math.abs),
  MIN: extreme(Math.min),
  MAX: extreme(Math.max),
  SUM: sum,
  AVERAGE: average,
  LEN: ([arg], _context, evaluate) =>
    [...((evaluate(arg as TypedNode) as string | null) ?? '')].length,
  UPPER: textual((text) => text.toUpperCase()),
  LOWER: textual((text) => text.toLowerCase()),
  TRIM: textual((text) => text.trim()),
  CONCAT: joined,
  CONTAINS: contains,
  TEXT: joined,
  IS_EMPTY: ([arg], _context, evaluate) => evaluate(arg as TypedNode) === null,
  COALESCE: (args, _context, evaluate) => {
    for (const arg of args) {
      const value = evaluate(arg);
      if (value !== null) return value;
    }
    return null;
  },
  TODAY: (_args, context) => today(context),
  NOW: (_args, context) => now(context),
  DAYS_SINCE: ofDay((day, context) => today(context) - day),
  DAYS_UNTIL: ofDay((day, context) => day - today(context)),
  DAYS_BETWEEN: ([start, end], context, evaluate) => {
    const from = dayOf(start as TypedNode, context, evaluate);
    const to = dayOf(end as TypedNode, context, evaluate);
    return from === null || to === null ? null : to - from;
  },
  ADD_DAYS: addDays,
  IS_OVERDUE: ([arg], context, evaluate) => {
    const day = dayOf(arg as TypedNode, context, evaluate);
    return day !== null && day < today(context);
  },
  YEAR: ofDay((day) => civilDate(day).year),
  MONTH: ofDay((day) => civilDate(day).month),
  DAY: ofDay((day) => civilDate(day).day),
  WEEKDAY: ofDay(weekday),
  COUNT: ([arg], _context, evaluate) =>
    ((evaluate(arg as TypedNode) as readonly string[] | null) ?? []).length,
};

/** A call's value; a function without an implementation cannot pass the check. */
export function callValue(node: Call, context: EvaluationContext, evaluate: Evaluate): Internal {
  const implementation = IMPLEMENTATIONS[node.name] as Implementation;
  return implementation(node.args, context, evaluate);
}

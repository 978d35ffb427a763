import { functionSpec } from './functions';
import { columnOf, tokenize, type Token } from './lexer';
import {
  type BinaryOperator,
  FORMULA_LIMITS,
  type FormulaError,
  type FormulaNode,
  type Span,
} from './types';

export type ParseResult = { ok: true; ast: FormulaNode } | { ok: false; error: FormulaError };

/**
 * How tightly each binary operator holds its values, loosest first: `or`, `and`, comparisons, `&`,
 * `+ -`, `* / %`. All of them group from the left (`a - b - c` is `(a - b) - c`).
 */
export const OPERATOR_POWER: Readonly<Record<BinaryOperator, number>> = {
  or: 1,
  and: 2,
  '=': 3,
  '!=': 3,
  '<': 3,
  '<=': 3,
  '>': 3,
  '>=': 3,
  '&': 4,
  '+': 5,
  '-': 5,
  '*': 6,
  '/': 6,
  '%': 6,
};
/** `-x` and `not x` hold tighter than any binary operator. */
export const PREFIX_POWER = 7;

const EMPTY_FORMULA = 'Write a formula, like {Price} * {Quantity}.';
const GROUP_COMMA = 'Commas only go between a function’s values, like ROUND({Price}, 2).';
/** Long enough to recognise a token in a message, short enough to keep the message one line. */
const QUOTED_LENGTH = 24;

class SyntaxProblem extends Error {
  constructor(readonly problem: FormulaError) {
    super(problem.message);
  }
}

function fail(message: string, span: Span): never {
  throw new SyntaxProblem({ message, start: span.start, end: span.end });
}

/** The binary operator a token is, if it is one (`and` and `or` in any case). */
function binaryOperator(token: Token): BinaryOperator | null {
  if (token.kind === 'operator') {
    return Object.hasOwn(OPERATOR_POWER, token.text) ? (token.text as BinaryOperator) : null;
  }
  if (token.kind === 'word') {
    const word = token.text.toLowerCase();
    if (word === 'and' || word === 'or') return word;
  }
  return null;
}

/** Whether a value can start at this token. */
function startsValue(token: Token): boolean {
  if (token.kind === 'number' || token.kind === 'text' || token.kind === 'field') return true;
  if (token.kind === 'word') return binaryOperator(token) === null;
  return token.kind === 'operator' && (token.text === '-' || token.text === '(');
}

/**
 * A recursive-descent parser with precedence climbing (Pratt): one method per kind of thing that
 * can start a value, one loop for the binary operators. It stops at the first problem.
 */
class Parser {
  private index = 0;
  private depth = 0;
  private nodes = 0;

  constructor(
    private readonly source: string,
    private readonly tokens: readonly Token[],
  ) {}

  parse(): FormulaNode {
    const ast = this.expression(0);
    const next = this.peek();
    if (next.kind !== 'end') this.unexpected(next, 'top');
    return ast;
  }

  /** The next token; where the text stopped making sense, that problem. */
  private peek(): Token {
    const token = this.tokens[this.index] as Token;
    if (token.kind === 'bad') throw new SyntaxProblem(token.error);
    return token;
  }

  private advance(): Token {
    const token = this.peek();
    this.index += 1;
    return token;
  }

  /** A token as a message shows it: its own text, cut short when long. */
  private quote(token: Token): string {
    const text = this.source.slice(token.start, token.end);
    return text.length > QUOTED_LENGTH ? `${text.slice(0, QUOTED_LENGTH - 1)}…` : text;
  }

  private node<N extends FormulaNode>(node: N): N {
    this.nodes += 1;
    if (this.nodes > FORMULA_LIMITS.nodes) {
      fail(
        `This formula is too big: use at most ${FORMULA_LIMITS.nodes} values, operators and functions.`,
        node,
      );
    }
    return node;
  }

  private expression(minPower: number): FormulaNode {
    let left = this.prefix(this.tokens[this.index - 1] ?? null);
    for (;;) {
      const token = this.peek();
      const operator = binaryOperator(token);
      if (operator === null || OPERATOR_POWER[operator] <= minPower) return left;
      this.advance();
      const right = this.expression(OPERATOR_POWER[operator]);
      left = this.node({
        kind: 'binary',
        operator,
        left,
        right,
        start: left.start,
        end: right.end,
      });
    }
  }

  /** A value: a literal, a field, a call, a group, or a prefix operator and its value. */
  private prefix(before: Token | null): FormulaNode {
    const token = this.peek();
    // AND( and OR( are calls: where a value is due, the keywords cannot be operators.
    const next = this.tokens[this.index + 1];
    const call = token.kind === 'word' && next?.kind === 'operator' && next.text === '(';
    if (!call && !startsValue(token)) return this.missingValue(before, token);
    this.advance();
    switch (token.kind) {
      case 'number':
        return this.node({ kind: 'number', value: token.value, ...span(token) });
      case 'text':
        return this.node({ kind: 'text', value: token.value, ...span(token) });
      case 'field':
        return this.node({ kind: 'field', name: token.name, start: token.start, end: token.end });
      case 'word':
        return this.word(token);
      default:
        return token.kind === 'operator' && token.text === '('
          ? this.group(token)
          : this.negate(token);
    }
  }

  private negate(minus: Token): FormulaNode {
    const operand = this.expression(PREFIX_POWER);
    return this.node({ kind: 'negate', operand, start: minus.start, end: operand.end });
  }

  private word(token: Token & { kind: 'word' }): FormulaNode {
    const word = token.text.toLowerCase();
    const next = this.peek();
    if (next.kind === 'operator' && next.text === '(') {
      this.advance();
      return this.call(token, next);
    }
    if (word === 'true' || word === 'false') {
      return this.node({ kind: 'boolean', value: word === 'true', ...span(token) });
    }
    if (word === 'not') {
      // `not x` is NOT(x): one tree for both spellings.
      const operand = this.expression(PREFIX_POWER);
      return this.node({
        kind: 'call',
        name: 'NOT',
        args: [operand],
        start: token.start,
        end: operand.end,
      });
    }
    const spec = functionSpec(token.text);
    if (spec) {
      return fail(
        `${spec.name} needs brackets: ${spec.min === 0 ? `${spec.name}()` : spec.signature}.`,
        token,
      );
    }
    return fail(`Put a field’s name in braces, like {${token.text}}.`, token);
  }

  /** Brackets opened at `open`: one level deeper. */
  private enter(open: Span): void {
    this.depth += 1;
    if (this.depth > FORMULA_LIMITS.depth) {
      fail(
        `This formula has too many brackets inside brackets: use at most ${FORMULA_LIMITS.depth} levels.`,
        open,
      );
    }
  }

  private group(open: Token): FormulaNode {
    this.enter(open);
    const inner = this.expression(0);
    const close = this.peek();
    if (close.kind === 'operator' && close.text === ')') {
      this.advance();
      this.depth -= 1;
      // The group's span includes its brackets, so an error about it points at all of it.
      return { ...inner, start: open.start, end: close.end };
    }
    if (close.kind === 'end') fail(`Missing ) to close ( at ${columnOf(open.start)}.`, open);
    return this.unexpected(close, 'group');
  }

  private call(name: Token & { kind: 'word' }, open: Token): FormulaNode {
    const opener = { start: name.start, end: open.end };
    this.enter(opener);
    const args: FormulaNode[] = [];
    let close = this.peek();
    if (close.kind === 'operator' && close.text === ')') {
      this.advance();
    } else {
      close = this.callArguments(name, opener, args);
    }
    this.depth -= 1;
    return this.node({
      kind: 'call',
      name: name.text.toUpperCase(),
      args,
      start: name.start,
      end: close.end,
    });
  }

  /** A call's values up to its `)`, which it returns. */
  private callArguments(name: Token & { kind: 'word' }, opener: Span, args: FormulaNode[]): Token {
    for (;;) {
      args.push(this.expression(0));
      const next = this.peek();
      if (next.kind === 'operator' && next.text === ')') return this.advance();
      if (next.kind === 'end') {
        fail(`Missing ) to close ${name.text}( at ${columnOf(opener.start)}.`, opener);
      }
      if (!(next.kind === 'operator' && next.text === ',')) this.unexpected(next, 'call');
      this.advance();
    }
  }

  /** A value was due at `token` and there is none: say what came before, or what came instead. */
  private missingValue(before: Token | null, token: Token): never {
    const isComma = (t: Token | null) => t?.kind === 'operator' && t.text === ',';
    const isOpen = (t: Token | null) => t?.kind === 'operator' && t.text === '(';
    if (token.kind === 'end' && before === null)
      fail(EMPTY_FORMULA, { start: 0, end: this.source.length });
    if (token.kind === 'end' && isOpen(before)) this.unclosed(before as Token);
    if (isComma(token) && (before === null || isOpen(before) || isComma(before))) {
      if (before === null) fail(GROUP_COMMA, token);
      fail('Expected a value before the comma.', token);
    }
    if (isComma(before)) fail('Expected a value after the comma.', before as Token);
    if (token.kind === 'operator' && token.text === ')') {
      if (before === null) fail('This ) has no ( to close.', token);
      if (isOpen(before))
        fail('Write something between ( and ).', {
          start: (before as Token).start,
          end: token.end,
        });
    }
    if (before !== null && !isOpen(before))
      fail(`Expected a value after ${this.quote(before)}.`, before);
    return fail(`Expected a value before ${this.quote(token)}.`, token);
  }

  /** The text ends right after `open`: name the brackets left open, and where they start. */
  private unclosed(open: Token): never {
    const name = this.tokens[this.tokens.indexOf(open) - 1];
    if (name?.kind === 'word' && binaryOperator(name) === null) {
      fail(`Missing ) to close ${name.text}( at ${columnOf(name.start)}.`, {
        start: name.start,
        end: open.end,
      });
    }
    return fail(`Missing ) to close ( at ${columnOf(open.start)}.`, open);
  }

  /** A token where an operator, a comma or a `)` was due. */
  private unexpected(token: Token, where: 'top' | 'group' | 'call'): never {
    if (token.kind === 'operator' && token.text === ')') fail('This ) has no ( to close.', token);
    if (token.kind === 'operator' && token.text === ',') fail(GROUP_COMMA, token);
    const between = where === 'call' ? 'an operator or a comma' : 'an operator';
    return fail(`Expected ${between} before ${this.quote(token)}.`, token);
  }
}

function span(token: Token): Span {
  return { start: token.start, end: token.end };
}

/**
 * A formula's text as a tree, or its first problem with the characters it is about. It never
 * throws, whatever the text: the limits come first, so no text can make it recurse or work
 * without bound.
 */
export function parseFormula(source: string): ParseResult {
  if (source.length > FORMULA_LIMITS.sourceLength) {
    return {
      ok: false,
      error: {
        message: `This formula is too long: use at most ${groupDigits(FORMULA_LIMITS.sourceLength)} characters.`,
        start: FORMULA_LIMITS.sourceLength,
        end: source.length,
      },
    };
  }
  if (source.trim() === '') {
    return { ok: false, error: { message: EMPTY_FORMULA, start: 0, end: source.length } };
  }
  try {
    return { ok: true, ast: new Parser(source, tokenize(source)).parse() };
  } catch (error) {
    if (error instanceof SyntaxProblem) return { ok: false, error: error.problem };
    throw error;
  }
}

/** 1000 as "1,000": the limits in messages, without the device's locale. */
export function groupDigits(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

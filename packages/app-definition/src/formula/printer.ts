import { OPERATOR_POWER, PREFIX_POWER } from './parser';
import type { FormulaNode } from './types';

/** A field's name between braces, its `}` and `\` escaped. */
export function fieldReference(name: string): string {
  return `{${name.replace(/[\\}]/g, (char) => `\\${char}`)}}`;
}

function textLiteral(value: string): string {
  return `"${value.replace(/[\\"]/g, (char) => `\\${char}`)}"`;
}

/**
 * A number as the parser reads it back: `String` gives the shortest digits that round-trip (an
 * exponent for the very small, which the parser reads too). A number below 0 has no literal of its
 * own, so it is written as a negation.
 */
function numberLiteral(value: number): string {
  return value < 0 || Object.is(value, -0) ? `-${String(-value)}` : String(value);
}

/** How tightly a node holds together: a value or call is never split by an operator around it. */
function power(node: FormulaNode): number {
  if (node.kind === 'binary') return OPERATOR_POWER[node.operator];
  if (node.kind === 'negate' || (node.kind === 'number' && node.value < 0)) return PREFIX_POWER;
  return PREFIX_POWER + 1;
}

/** `node` printed, in brackets when it holds less tightly than its place needs. */
function operand(node: FormulaNode, needed: number): string {
  const text = printFormula(node);
  return power(node) < needed ? `(${text})` : text;
}

/**
 * A formula tree as text that parses back to the same tree: brackets only where the operators'
 * precedence needs them, one space around each binary operator, names as stored (a known function
 * upper case, `not x` as `NOT(x)`).
 */
export function printFormula(node: FormulaNode): string {
  switch (node.kind) {
    case 'number':
      return numberLiteral(node.value);
    case 'text':
      return textLiteral(node.value);
    case 'boolean':
      return node.value ? 'true' : 'false';
    case 'field':
      return fieldReference(node.name);
    case 'negate':
      return `-${operand(node.operand, PREFIX_POWER)}`;
    case 'binary': {
      const own = OPERATOR_POWER[node.operator];
      // Operators group from the left, so a right-hand value of the same power needs brackets.
      return `${operand(node.left, own)} ${node.operator} ${operand(node.right, own + 1)}`;
    }
    case 'call':
      return `${node.name}(${node.args.map(printFormula).join(', ')})`;
  }
}

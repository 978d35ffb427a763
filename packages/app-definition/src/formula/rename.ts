import { findField } from './compile';
import { tokenize } from './lexer';
import { fieldReference } from './printer';
import type { FormulaField } from './types';

/**
 * A formula with its references to a renamed field rewritten, and nothing else touched (spacing,
 * case, brackets stay as the creator wrote them). A reference is to the field when it would find
 * it: the same name, or the same trimmed and ignoring case. With the collection's `fields` (as
 * they were before the rename), a reference that another field's exact name claims is left alone,
 * as the check would resolve it. Text after a point the formula stops making sense (an unclosed
 * quote) is kept as it is.
 */
export function renameFieldInFormula(
  source: string,
  oldName: string,
  newName: string,
  fields?: readonly Pick<FormulaField, 'id' | 'name'>[],
): string {
  const renamed = fields ? findField(fields, oldName) : undefined;
  const refersToIt = (name: string) =>
    renamed
      ? findField(fields ?? [], name) === renamed
      : name === oldName || name.trim().toLowerCase() === oldName.trim().toLowerCase();
  let result = '';
  let copied = 0;
  for (const token of tokenize(source)) {
    if (token.kind !== 'field' || !refersToIt(token.name)) continue;
    result += source.slice(copied, token.start) + fieldReference(newName);
    copied = token.end;
  }
  return result + source.slice(copied);
}

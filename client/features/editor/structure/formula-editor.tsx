import {
  checkFormula,
  type Collection,
  describeType,
  type Field,
  fieldsForFormulas,
  FORMULA_LIMITS,
  setField,
} from '@pipit/app-definition';
import { DraftText } from '../common/draft-fields';
import { useEditor } from '../common/editor-context';
import { FormulaFunctions, formulaProblem as problemOf } from '../common/formula-help';

/** The formula's first problem, pointing at where it is ("… at characters 1–7."). */
function formulaProblem(fields: readonly Field[], field: Field, text: string): string | null {
  const check = checkFormula(text, fields, { fieldId: field.id });
  return check.ok ? null : problemOf(check, text);
}

/**
 * A formula field's expression, checked as it is typed against the collection's fields (the same
 * check publishing makes); only a formula that works is saved, so the app never shows a broken one.
 */
export function FormulaEditor({ collection, field }: { collection: Collection; field: Field }) {
  const { handle, readOnly, definition } = useEditor();
  // Rollups reach formulas as the type of value they give.
  const fields = fieldsForFormulas(definition.collections, collection);
  const current = field.formula ?? '';
  const check = checkFormula(current, fields, { fieldId: field.id });
  const others = collection.fields.filter((f) => f.id !== field.id).map((f) => `{${f.name}}`);
  return (
    <div className="formula-editor">
      <DraftText
        label="Formula"
        hint={
          check.ok
            ? `Gives ${describeType(check.type)}. Name fields in braces: ${others.slice(0, 4).join(', ') || '{Field}'}.`
            : `Name fields in braces, like {Price} * {Quantity}. Up to ${FORMULA_LIMITS.sourceLength} characters.`
        }
        multiline
        rows={3}
        value={current}
        disabled={readOnly}
        validate={(text) => formulaProblem(fields, field, text)}
        onCommit={(formula) => handle.edit(setField, field.id, { formula })}
      />
      {!check.ok && current.trim() !== '' ? (
        <p className="field__error" role="status">
          {formulaProblem(fields, field, current)}
        </p>
      ) : null}
      <FormulaFunctions />
    </div>
  );
}

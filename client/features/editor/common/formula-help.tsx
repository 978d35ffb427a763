import { FORMULA_FUNCTIONS, type FormulaCheck } from '@pipit/app-definition';

/*
 * What every formula input in the editor shows: its first problem, pointing at where it is, and
 * the functions a formula can use. A formula field (structure/formula-editor.tsx) and a formula
 * reminder (reminders/) write their formulas in different places; they read them alike.
 */

/** A failed check's problem, pointing at where it is ("… (at characters 1–7)."). */
export function formulaProblem(check: Extract<FormulaCheck, { ok: false }>, text: string): string {
  const { message, start, end } = check.error;
  if (text.trim() === '') return message;
  const where =
    end - start <= 1 ? `at character ${start + 1}` : `at characters ${start + 1}–${end}`;
  return `${message.replace(/\.$/, '')} (${where}).`;
}

/** The functions a formula can use, folded away until asked for. */
export function FormulaFunctions() {
  return (
    <details className="formula-editor__help">
      <summary>Functions</summary>
      <dl>
        {FORMULA_FUNCTIONS.map((fn) => (
          <div key={fn.name}>
            <dt>
              <code>{fn.signature}</code>
            </dt>
            <dd>{fn.description}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

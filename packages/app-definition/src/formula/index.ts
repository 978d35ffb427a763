/**
 * Formulas: computed fields' own small language, checked before it runs and evaluated without
 * `eval` (README.md). Also the package's `./formula` entry, so the installed app loads it only for
 * an app that has a formula field.
 */
export {
  FORMULA_LIMITS,
  FORMULA_TYPES,
  describeType,
  formulaTypeOf,
  type BinaryOperator,
  type FormulaEnv,
  type FormulaError,
  type FormulaField,
  type FormulaNode,
  type FormulaResult,
  type FormulaType,
  type FormulaValue,
} from './types';
export { parseFormula, type ParseResult } from './parser';
export { printFormula } from './printer';
export {
  checkFormula,
  compileCollectionFormulas,
  compileFormulasOf,
  type CompiledFormula,
  type CompiledFormulas,
  type FormulaCheck,
} from './compile';
export { evaluateFormulas } from './evaluate';
export { FORMULA_FUNCTIONS } from './functions';
export { renameFieldInFormula } from './rename';

/**
 * The records bench's second figure, run in Chromium (bundled by bench/records.ts and put into a
 * blank page): the runtime's own functions that work computed fields out — `indexRecords` (what
 * `AppRuntime` runs after every change of the visitor's data), `formulaComputer` (what compiles a
 * definition's formulas, again when a creator's formula changes) and the formula engine, imported
 * from their sources as the installed app's build does. Nothing here is product code.
 */
import * as engine from '../packages/app-definition/src/formula/index';
import { deviceFormulaEnv, formulaComputer } from '../packages/runtime/src/formulas';
import * as relations from '../packages/runtime/src/relations';
import type { RuntimeDataRecord } from '../packages/runtime/src/runtime-data';
import { indexRecords, RecordIndexMemo } from '../packages/runtime/src/runtime-records';
import type { ReadDefinition } from '@pipit/app-definition';

export interface ComputeTimes {
  /**
   * One record's value changed: `indexRecords` over every record (formulas compiled already),
   * keeping what the last index worked out as the running app does (RecordIndexMemo).
   */
  oneChange: number[];
  /** The same, every record worked out afresh (no memo): how it was before the memo. */
  oneChangeAfresh: number[];
  /** A formula changed: compiled again (`formulaComputer`), then `indexRecords` over every record. */
  formulaChange: number[];
  /** A formula changed: compiled again, then worked out for the `visible` first records only. */
  visibleOnly: number[];
  /** How many records the index held, and one record's computed values (a check it ran). */
  indexed: number;
  sample: Record<string, unknown>;
}

function measure(
  definition: ReadDefinition,
  records: RuntimeDataRecord[],
  collectionId: string,
  formulaFieldId: string,
  formulas: string[],
  visible: number,
  runs: number,
): ComputeTimes {
  const env = deviceFormulaEnv();
  const out: ComputeTimes = {
    oneChange: [],
    oneChangeAfresh: [],
    formulaChange: [],
    visibleOnly: [],
    indexed: 0,
    sample: {},
  };
  const compute = formulaComputer(engine, definition, env);
  let current = records;
  // The app's first index of the data, before any change.
  const memo = new RecordIndexMemo();
  readAll(indexRecords(definition, current, compute, relations, null, memo));
  for (let i = 0; i < runs; i++) {
    // What the data store hands the runtime after one edit: a new list, one record new.
    const at = i % current.length;
    const changed = current[at]!;
    current = current.with(at, {
      ...changed,
      values: { ...changed.values, hours: ((changed.values.hours as number) % 40) + 1 },
    });
    let started = performance.now();
    readAll(indexRecords(definition, current, compute, relations));
    out.oneChangeAfresh.push(performance.now() - started);
    started = performance.now();
    const index = readAll(indexRecords(definition, current, compute, relations, null, memo));
    out.oneChange.push(performance.now() - started);
    out.indexed = index.of(collectionId).length;
    out.sample = index.of(collectionId)[0]?.values ?? {};
  }
  for (let i = 0; i < runs; i++) {
    // A creator typing into the formula: each keystroke is a new definition (new collection
    // objects, so nothing compiled is reused), as the editor's store gives one.
    const typed = withFormula(
      definition,
      collectionId,
      formulaFieldId,
      formulas[i % formulas.length]!,
    );
    let started = performance.now();
    const recompiled = formulaComputer(engine, typed, env);
    readAll(indexRecords(typed, current, recompiled, relations));
    out.formulaChange.push(performance.now() - started);
    const again = withFormula(
      definition,
      collectionId,
      formulaFieldId,
      formulas[(i + 1) % formulas.length]!,
    );
    started = performance.now();
    const shown = formulaComputer(engine, again, env);
    for (const record of current.slice(0, visible)) shown?.(record.collectionId, record.values);
    out.visibleOnly.push(performance.now() - started);
  }
  return out;
}

/**
 * Reads every record's computed values, as a list that searches, filters or sorts by them does:
 * the index works a record's out when first read, so timing the index alone would time nothing.
 */
function readAll(index: ReturnType<typeof indexRecords>): ReturnType<typeof indexRecords> {
  for (const id of ['tasks', 'projects']) for (const record of index.of(id)) void record.values;
  return index;
}

function withFormula(
  definition: ReadDefinition,
  collectionId: string,
  fieldId: string,
  formula: string,
): ReadDefinition {
  return {
    ...definition,
    collections: definition.collections.map((c) =>
      c.id === collectionId
        ? { ...c, fields: c.fields.map((f) => (f.id === fieldId ? { ...f, formula } : { ...f })) }
        : { ...c },
    ),
  };
}

(globalThis as unknown as { pipitRecordsBench: { measure: typeof measure } }).pipitRecordsBench = {
  measure,
};

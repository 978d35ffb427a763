import type { Collection, FieldValue, ReadDefinition } from '@pipit/app-definition';
import type * as FormulaEngine from '@pipit/app-definition/formula';
import type { CompiledFormulas, FormulaEnv } from '@pipit/app-definition/formula';
import { lazyModule, useLazyModule } from './lazy-module';

/*
 * Formula fields' values, worked out where records are shown (never stored). The engine is its own
 * chunk: an app without a formula field never downloads it, and one with them shows the other
 * fields at once and its formulas a moment later.
 */

type FormulaModule = typeof FormulaEngine;

/** A record's formula values and, for those that couldn't be worked out, why. */
export interface Computed {
  values: Record<string, FieldValue>;
  errors: Record<string, string>;
}

/** Works out one record's formulas; null for a collection without any. */
export type ComputeFormulas = (
  collectionId: string,
  values: Readonly<Record<string, FieldValue>>,
) => Computed | null;

export function hasFormulas(definition: Pick<ReadDefinition, 'collections'>): boolean {
  return definition.collections.some((c) => c.fields.some((f) => f.type === 'formula'));
}

export const formulaModule = lazyModule<FormulaModule>(
  () => import('@pipit/app-definition/formula'),
);

/** The engine once it is here, for a definition with formula fields (null until then, or without). */
export function useFormulaEngine(
  definition: Pick<ReadDefinition, 'collections'>,
): FormulaModule | null {
  return useLazyModule(formulaModule, hasFormulas(definition));
}

/**
 * What TODAY(), NOW() and a moment's day are on this device, now. The zone is read when a formula
 * first needs it (a date with a time): the first `Intl.DateTimeFormat` of a page loads the
 * device's zone and date patterns, ~40 ms of a phone's start (~150 ms at 4× in
 * `npm run bench -- records`), which an app whose formulas never read a moment's day never pays.
 */
export function deviceFormulaEnv(now = Date.now()): FormulaEnv {
  const date = new Date(now);
  const pad = (n: number) => String(n).padStart(2, '0');
  let zone: string | undefined;
  return {
    today: `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`,
    now,
    get timeZone() {
      return (zone ??= Intl.DateTimeFormat().resolvedOptions().timeZone);
    },
  };
}

/**
 * Compiled once per collection object, within one list of collections (a rollup's type, which
 * formulas see, comes from the collection it links).
 */
const compiledOf = new WeakMap<
  Collection,
  { within: readonly Collection[]; compiled: CompiledFormulas }
>();

/** A record's formulas over its values, for every collection of the definition that has any. */
export function formulaComputer(
  engine: FormulaModule | null,
  definition: Pick<ReadDefinition, 'collections'>,
  env: FormulaEnv,
): ComputeFormulas | null {
  if (!engine) return null;
  const byId = new Map<string, CompiledFormulas>();
  for (const collection of definition.collections) {
    if (!collection.fields.some((f) => f.type === 'formula')) continue;
    let cached = compiledOf.get(collection);
    if (cached?.within !== definition.collections) {
      cached = {
        within: definition.collections,
        compiled: engine.compileFormulasOf(definition.collections, collection),
      };
      compiledOf.set(collection, cached);
    }
    byId.set(collection.id, cached.compiled);
  }
  return (collectionId, values) => {
    const compiled = byId.get(collectionId);
    if (!compiled) return null;
    const out: Computed = { values: {}, errors: {} };
    for (const [fieldId, error] of Object.entries(compiled.errors))
      out.errors[fieldId] = error.message;
    for (const [fieldId, result] of Object.entries(
      engine.evaluateFormulas(compiled, values, env),
    )) {
      if ('error' in result) out.errors[fieldId] = result.error;
      else out.values[fieldId] = result.value;
    }
    return out;
  };
}

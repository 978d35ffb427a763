import { FILE_FIELD_TYPES, type ReadDefinition } from '@pipit/app-definition';
import { formulaModule, hasFormulas } from './formulas';
import { aiStepsModule } from './actions';
import { lazyModule } from './lazy-module';
import { hasLinks, relationsModule } from './link-engine';
import { linkedRecordsModule } from './linked-records-part';

/*
 * The runtime's parts that only some apps need, each its own chunk: an app that has none of them
 * never downloads them, which keeps the installed app's first visit within its budget
 * (docs/performance.md, "What a first visit loads"). The blocks that use them draw them through
 * lazyPart (lazy-part.ts).
 */

export const chartModule = lazyModule(() => import('./blocks/chart-block'));
export const timerModule = lazyModule(() => import('./blocks/timer-block'));
export const fileControlModule = lazyModule(() => import('./blocks/file-control'));
export const linkPickerModule = lazyModule(() => import('./blocks/link-picker'));
export { linkedRecordsModule };
/** A record's detail and a stat (one module: they share the records' formatting). */
export const recordBlocksModule = lazyModule(() => import('./blocks/record-blocks'));
export const counterModule = lazyModule(() => import('./blocks/counter-block'));
export const viewModules = {
  table: lazyModule(() => import('./list-views/table-view')),
  board: lazyModule(() => import('./list-views/board-view')),
  calendar: lazyModule(() => import('./list-views/calendar-view')),
  gallery: lazyModule(() => import('./list-views/gallery-view')),
};

type Definition = Pick<ReadDefinition, 'collections' | 'screens' | 'aiActions'>;

/** Whether the app has a photo or file field: its picker, and the host's keeping and sending. */
export function hasFileFields(definition: Pick<ReadDefinition, 'collections'>): boolean {
  return definition.collections.some((c) =>
    c.fields.some((field) => FILE_FIELD_TYPES.includes(field.type)),
  );
}

/**
 * Loads the parts this app uses, so its first render draws them rather than their placeholders
 * (the installed app awaits it before that render, within its wait for this device's copies).
 * Never rejects: a part that could not load is tried again where it is drawn.
 */
export async function preloadRuntimeParts(definition: Definition): Promise<void> {
  const loads: Array<Promise<unknown>> = [];
  const components = definition.screens.flatMap((screen) => screen.components);
  const used = new Set<string>(components.map((component) => component.type));
  if (used.has('chart')) loads.push(chartModule.load());
  if (used.has('timer')) loads.push(timerModule.load());
  if (used.has('counter')) loads.push(counterModule.load());
  if (used.has('detail') || used.has('stat')) loads.push(recordBlocksModule.load());
  for (const component of components) {
    const view = component.type === 'list' ? (component.props as { view?: unknown }).view : null;
    if (typeof view === 'string' && Object.hasOwn(viewModules, view)) {
      loads.push(viewModules[view as keyof typeof viewModules].load());
    }
  }
  if (definition.aiActions.length > 0) loads.push(aiStepsModule.load());
  if (hasFileFields(definition)) loads.push(fileControlModule.load());
  if (hasFormulas(definition)) loads.push(formulaModule.load());
  if (hasLinks(definition)) {
    loads.push(relationsModule.load(), linkPickerModule.load(), linkedRecordsModule.load());
  }
  await Promise.allSettled(loads);
}

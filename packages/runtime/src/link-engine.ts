import type { ReadDefinition } from '@pipit/app-definition';
import { lazyModule, useLazyModule } from './lazy-module';
import type * as Relations from './relations';

/*
 * Relations and rollups load as their own chunk, only for apps with a relation or rollup field: the
 * others never download them, and one with them shows its records at once and their links a moment
 * later.
 */

export type RelationsModule = typeof Relations;

export function hasLinks(definition: Pick<ReadDefinition, 'collections'>): boolean {
  return definition.collections.some((c) =>
    c.fields.some((f) => f.type === 'relation' || f.type === 'rollup'),
  );
}

export const relationsModule = lazyModule<RelationsModule>(() => import('./relations'));

/** Relations and rollups once they are here, for a definition with any (null until then, or without). */
export function useRelations(
  definition: Pick<ReadDefinition, 'collections'>,
): RelationsModule | null {
  return useLazyModule(relationsModule, hasLinks(definition));
}

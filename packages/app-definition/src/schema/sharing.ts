import type { AppDefinition, Collection } from './definition';

/*
 * Whose records a collection holds (docs/product/app-definition.md, collections). Without zod, so
 * the installed app can ask it without loading the definition's schemas.
 */

/** `private`: each visitor's own records; `space`: the records of a shared space, one per group. */
export const COLLECTION_SHARING = ['private', 'space'] as const;
export type CollectionSharing = (typeof COLLECTION_SHARING)[number];

/**
 * Who may change or delete a record of a shared collection: `anyone` in the space, or only its
 * `author` (the person who added it).
 */
export const RECORD_RULES = ['anyone', 'author'] as const;
export type CollectionRecordRule = (typeof RECORD_RULES)[number];

/**
 * Whether a collection keeps its records in a shared space. A collection saved before sharing
 * existed has no `sharing` at all, and is private.
 */
export function isSharedCollection(collection: Pick<Collection, 'sharing'>): boolean {
  return collection.sharing === 'space';
}

/**
 * The rule for changing the records of a collection: its own rule when it is shared in a space;
 * the strictest one (`author`) for a private collection or one the definition does not have.
 */
export function recordRuleOf(
  definition: Pick<AppDefinition, 'collections'>,
  collectionId: string,
): CollectionRecordRule {
  const collection = definition.collections.find((c) => c.id === collectionId);
  if (!collection || !isSharedCollection(collection)) return 'author';
  return collection.recordRule === 'anyone' ? 'anyone' : 'author';
}

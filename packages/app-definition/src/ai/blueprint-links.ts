import type { AppDefinition, Field } from '../schema/definition';
import { LIMITS } from '../schema/limits';
import { fieldsForFormulas, rollupSource } from '../schema/relations';
import { compileCollectionFormulas } from '../formula/compile';

/*
 * A blueprint's relations, rollups and formulas, set up once every collection exists
 * (docs/product/ai-builder.md): the model names collections and fields, never ids, so each is
 * resolved by name here, and one that can't be set up is left out (a relation to a collection no
 * one described stays a text field), so the app always passes the publish check.
 */

type Collection = AppDefinition['collections'][number];

/** What the blueprint said about each relation, rollup and formula field, by the field's id. */
export type FieldLinks = Map<
  string,
  {
    links?: string;
    many?: boolean;
    aggregate?: Field['aggregate'];
    over?: string;
    formula?: string;
  }
>;

const key = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();

function setUpRelation(field: Field, given: { links?: string; many?: boolean }, target?: string) {
  if (!target) {
    // Nothing to link to: the name stays, as text people type.
    field.type = 'text';
    return;
  }
  field.target = target;
  if (given.many) field.many = true;
}

/**
 * The relation a rollup of `collection` over `other`'s records reads: this collection's own relation
 * to it, or else one of `other`'s linking here.
 */
function setUpRollup(
  collections: readonly Collection[],
  collection: Collection,
  field: Field,
  given: { aggregate?: Field['aggregate']; over?: string },
  other: Collection | undefined,
): boolean {
  if (!other) return false;
  const own = collection.fields.find((f) => f.type === 'relation' && f.target === other.id);
  const theirs = other.fields.find((f) => f.type === 'relation' && f.target === collection.id);
  const relation = own ?? theirs;
  if (!relation) return false;
  field.through = relation.id;
  if (!own) field.throughCollection = other.id;
  field.aggregate = given.aggregate ?? 'count';
  if (field.aggregate !== 'count') {
    const over = other.fields.find((f) => key(f.name) === key(given.over ?? ''));
    if (!over) return false;
    field.aggregateFieldId = over.id;
  }
  return !('problem' in rollupSource(collections, collection, field));
}

/** Sets up each collection's relations, then rollups, then formulas, dropping what can't be. */
export function linkFields(
  collections: Collection[],
  links: FieldLinks,
  collectionNamed: (name: string) => string | undefined,
): void {
  const byId = (id: string | undefined) => collections.find((c) => c.id === id);
  for (const collection of collections)
    for (const field of collection.fields) {
      const given = links.get(field.id);
      if (given && field.type === 'relation')
        setUpRelation(field, given, collectionNamed(given.links ?? ''));
    }
  for (const collection of collections) {
    collection.fields = collection.fields.filter((field) => {
      const given = links.get(field.id);
      if (field.type !== 'rollup') return true;
      const other = byId(collectionNamed(given?.links ?? ''));
      return setUpRollup(collections, collection, field, given ?? {}, other);
    });
  }
  for (const collection of collections) {
    for (const field of collection.fields)
      if (field.type === 'formula')
        field.formula = (links.get(field.id)?.formula ?? '').slice(0, LIMITS.formulaLength);
    // Leaving out a formula can break another that used it: again until all the rest check.
    for (;;) {
      const { errors } = compileCollectionFormulas(fieldsForFormulas(collections, collection));
      const broken = collection.fields.filter((f) => errors[f.id]);
      if (broken.length === 0) break;
      collection.fields = collection.fields.filter((f) => !broken.includes(f));
    }
    if (collection.fields.length === 0)
      collection.fields.push({
        id: `${collection.id}-name`,
        name: 'Name',
        type: 'text',
        required: true,
        default: null,
        options: [],
      });
  }
}

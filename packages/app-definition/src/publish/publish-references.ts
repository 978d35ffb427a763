import { isFieldListKey, type ReferenceTable, referenceTable } from '../document/reader';

/** A reference problem: its path as segments (indexes as numbers) and as text, and what is wrong. */
export interface ReferenceProblem {
  path: string;
  segments: Array<string | number>;
  message: string;
}

type Json = Record<string, unknown>;

/** The definition is checked before it is known to be well-formed, so every read is defensive. */
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const object = (value: unknown): Json =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
const idOf = (value: unknown): string | null => {
  const id = object(value).id;
  return typeof id === 'string' ? id : null;
};
const idsOf = (items: unknown[]) =>
  new Set(items.map(idOf).filter((id): id is string => id !== null));

const WHAT: Record<ReferenceTable, string> = {
  screens: 'screen',
  collections: 'collection',
  fields: 'field',
  actions: 'action',
  aiActions: 'AI action',
};

const dangling = (target: ReferenceTable) =>
  `The ${WHAT[target]} this points to no longer exists. Choose another one, or none.`;
const OTHER_COLLECTION =
  'This field belongs to another collection. Choose one of this collection’s fields.';
const OTHER_RECORD =
  'The new record must be of the collection the AI returns. Choose the same collection for both.';

/**
 * References that point nowhere: a screen, collection, field, action or AI action that was deleted
 * (the editor's reader shows them as unset; a published app must not carry them). A field must also
 * belong to the collection the component or step works on, and an AI action's new record must be
 * of the collection its record output names. An unset (null) reference is fine.
 */
export function referenceProblems(definition: unknown): ReferenceProblem[] {
  const problems: ReferenceProblem[] = [];
  const add = (segments: Array<string | number>, message: string) =>
    problems.push({ path: segments.join('.'), segments, message });
  const root = object(definition);
  const collections = list(root.collections);
  const fieldsOf = new Map(
    collections.map((c) => [idOf(c), idsOf(list(object(c).fields))] as const),
  );
  const ids: Record<ReferenceTable, Set<string>> = {
    screens: idsOf(list(root.screens)),
    collections: idsOf(collections),
    fields: new Set([...fieldsOf.values()].flatMap((fields) => [...fields])),
    actions: idsOf(list(root.actions)),
    aiActions: idsOf(list(root.aiActions)),
  };

  const checkProps = (at: Array<string | number>, props: Json) => {
    const own = typeof props.collectionId === 'string' ? fieldsOf.get(props.collectionId) : null;
    const field = (path: Array<string | number>, id: unknown) => {
      if (typeof id !== 'string') return;
      if (!ids.fields.has(id)) add(path, dangling('fields'));
      else if (own && !own.has(id)) add(path, OTHER_COLLECTION);
    };
    for (const [key, value] of Object.entries(props)) {
      const target = referenceTable(key);
      if (target === 'fields') field([...at, key], value);
      else if (target && typeof value === 'string' && !ids[target].has(value)) {
        add([...at, key], dangling(target));
      } else if (isFieldListKey(key)) {
        list(value).forEach((id, i) => field([...at, key, i], id));
      } else if (key === 'filter' || key === 'sort') {
        field([...at, key, 'fieldId'], object(value).fieldId);
      } else if (key === 'values') {
        for (const id of Object.keys(object(value))) field([...at, key, id], id);
      }
    }
  };

  list(root.screens).forEach((screen, s) =>
    list(object(screen).components).forEach((c, i) =>
      checkProps(['screens', s, 'components', i, 'props'], object(object(c).props)),
    ),
  );
  list(root.actions).forEach((action, a) =>
    list(object(action).steps).forEach((step, i) =>
      checkProps(['actions', a, 'steps', i, 'props'], object(object(step).props)),
    ),
  );
  list(root.aiActions).forEach((ai, a) => {
    const { output, target } = object(ai);
    const collection = (part: string, value: Json) => {
      if (typeof value.collectionId === 'string' && !ids.collections.has(value.collectionId)) {
        add(['aiActions', a, part, 'collectionId'], dangling('collections'));
      }
    };
    if (object(output).kind === 'record') collection('output', object(output));
    if (object(target).kind === 'createRecord') collection('target', object(target));
    // A run asks for the new record's collection (planAiRun), so a record output naming another
    // one would be asked for, shown and landed as something it is not.
    const returned = object(output).collectionId;
    const created = object(target).collectionId;
    if (
      object(output).kind === 'record' &&
      object(target).kind === 'createRecord' &&
      typeof returned === 'string' &&
      typeof created === 'string' &&
      returned !== created &&
      ids.collections.has(returned) &&
      ids.collections.has(created)
    ) {
      add(['aiActions', a, 'target', 'collectionId'], OTHER_RECORD);
    }
    const fieldId = object(target).fieldId;
    if (
      object(target).kind === 'field' &&
      typeof fieldId === 'string' &&
      !ids.fields.has(fieldId)
    ) {
      add(['aiActions', a, 'target', 'fieldId'], dangling('fields'));
    }
  });
  return problems;
}

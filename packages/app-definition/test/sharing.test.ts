import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import {
  addCollection,
  type AppDefinition,
  appDefinitionSchema,
  APP_TEMPLATES,
  applyDefinition,
  checkForPublish,
  type Collection,
  createApp,
  DefinitionError,
  diffDefinitions,
  exportDefinition,
  isSharedCollection,
  LOCAL_EDIT,
  mergeDefinitions,
  parseImport,
  readDefinition,
  recordRuleOf,
  setCollectionSharing,
  summarizeChanges,
  summarizeEdits,
  validateEdits,
  writeDefinition,
} from '../src/index';
import { idFactory, newDoc } from './support';

function app() {
  const doc = newDoc();
  const newId = idFactory();
  createApp(doc, newId, { title: 'Household' });
  const groceries = addCollection(doc, newId, 'Groceries');
  return { doc, newId, groceries };
}

const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

const collectionIn = (doc: Y.Doc, id: string) =>
  readDefinition(doc).collections.find((c) => c.id === id)!;

/** A definition JSON as stored before collections could be shared: no sharing, no rule. */
function storedBeforeSharing(definition: AppDefinition): AppDefinition {
  const json = copy(definition);
  for (const collection of json.collections as Array<Partial<Collection>>) {
    delete collection.sharing;
    delete collection.recordRule;
  }
  return json;
}

describe('a collection’s sharing', () => {
  it('is private, anyone, until the creator shares it; each property is set on its own', () => {
    const { doc, groceries } = app();
    expect(collectionIn(doc, groceries)).toMatchObject({
      sharing: 'private',
      recordRule: 'anyone',
    });

    const origins: unknown[] = [];
    doc.on('afterTransaction', (tr: Y.Transaction) => origins.push(tr.origin));
    setCollectionSharing(doc, groceries, { sharing: 'space' });
    expect(collectionIn(doc, groceries)).toMatchObject({ sharing: 'space', recordRule: 'anyone' });
    setCollectionSharing(doc, groceries, { recordRule: 'author' });
    expect(collectionIn(doc, groceries)).toMatchObject({ sharing: 'space', recordRule: 'author' });
    expect(origins).toEqual([LOCAL_EDIT, LOCAL_EDIT]);

    const undo = new Y.UndoManager(doc.getMap('collections'), {
      trackedOrigins: new Set([LOCAL_EDIT]),
    });
    setCollectionSharing(doc, groceries, { sharing: 'private' });
    expect(collectionIn(doc, groceries).sharing).toBe('private');
    undo.undo();
    expect(collectionIn(doc, groceries).sharing).toBe('space');
  });

  it('refuses a collection that is gone and a value that is not a choice, changing nothing', () => {
    const { doc, groceries } = app();
    expect(() => setCollectionSharing(doc, 'gone', { sharing: 'space' })).toThrow(DefinitionError);
    expect(() => setCollectionSharing(doc, groceries, { sharing: 'everyone' as 'space' })).toThrow(
      DefinitionError,
    );
    expect(() =>
      setCollectionSharing(doc, groceries, { sharing: 'space', recordRule: 'owner' as 'author' }),
    ).toThrow(DefinitionError);
    expect(collectionIn(doc, groceries)).toMatchObject({
      sharing: 'private',
      recordRule: 'anyone',
    });
  });

  it('reads a value it does not know as the default, and the publish check names it', () => {
    const { doc, groceries } = app();
    const entity = doc.getMap<Y.Map<unknown>>('collections').get(groceries)!;
    entity.set('sharing', 'everyone');
    entity.set('recordRule', 42);
    expect(collectionIn(doc, groceries)).toMatchObject({
      sharing: 'private',
      recordRule: 'anyone',
    });
    const check = checkForPublish(doc);
    expect(check.ok).toBe(false);
    if (!check.ok) {
      expect(check.problems.map((p) => p.path)).toEqual([
        'collections.0.sharing',
        'collections.0.recordRule',
      ]);
    }
  });

  it('publishes a collection without either property as private, anyone', () => {
    const { doc, groceries } = app();
    const check = checkForPublish(doc);
    expect(check.ok).toBe(true);
    if (check.ok) {
      expect(check.definition.collections[0]).toMatchObject({
        id: groceries,
        sharing: 'private',
        recordRule: 'anyone',
      });
    }
  });

  it('survives a document, an export and an import; an old export reads as private', () => {
    const { doc, groceries } = app();
    setCollectionSharing(doc, groceries, { sharing: 'space', recordRule: 'author' });
    const definition = appDefinitionSchema.parse(readDefinition(doc));
    const copy = newDoc();
    writeDefinition(copy, definition);
    expect(readDefinition(copy)).toEqual(definition);
    expect(parseImport(exportDefinition(definition))).toEqual(definition);

    const old = parseImport(exportDefinition(storedBeforeSharing(definition)));
    expect(old.collections[0]).toMatchObject({ sharing: 'private', recordRule: 'anyone' });
    expect(appDefinitionSchema.parse(storedBeforeSharing(definition)).collections[0]).toMatchObject(
      { sharing: 'private', recordRule: 'anyone' },
    );
  });

  it('is restored with the rest of a definition', () => {
    const { doc, groceries } = app();
    const before = appDefinitionSchema.parse(readDefinition(doc));
    setCollectionSharing(doc, groceries, { sharing: 'space', recordRule: 'author' });
    applyDefinition(doc, before);
    expect(collectionIn(doc, groceries)).toMatchObject({
      sharing: 'private',
      recordRule: 'anyone',
    });
  });
});

describe('isSharedCollection and recordRuleOf', () => {
  const definition = {
    collections: [
      { id: 'items', sharing: 'space', recordRule: 'anyone' },
      { id: 'chores', sharing: 'space', recordRule: 'author' },
      { id: 'notes', sharing: 'private', recordRule: 'anyone' },
      // A published version from before sharing, which the installed app does not parse again.
      { id: 'old' },
    ],
  } as unknown as AppDefinition;

  it('says which collections are shared', () => {
    expect(definition.collections.map(isSharedCollection)).toEqual([true, true, false, false]);
  });

  it('gives a shared collection’s rule, and the strictest for any other', () => {
    expect(recordRuleOf(definition, 'items')).toBe('anyone');
    expect(recordRuleOf(definition, 'chores')).toBe('author');
    expect(recordRuleOf(definition, 'notes')).toBe('author');
    expect(recordRuleOf(definition, 'old')).toBe('author');
    expect(recordRuleOf(definition, 'unknown')).toBe('author');
  });
});

describe('changes and merges of sharing', () => {
  function shared(recordRule: 'anyone' | 'author' = 'anyone') {
    const { doc, groceries } = app();
    const before = appDefinitionSchema.parse(readDefinition(doc));
    setCollectionSharing(doc, groceries, { sharing: 'space', recordRule });
    return { before, after: appDefinitionSchema.parse(readDefinition(doc)), groceries };
  }

  it('lists it as a changed property of the collection, in words', () => {
    const { before, after } = shared('author');
    const diff = diffDefinitions(before, after);
    expect(diff.changes).toEqual([
      expect.objectContaining({
        entity: 'collection',
        name: 'Groceries',
        change: 'changed',
        properties: ['shared in a space', 'who can change a record'],
      }),
    ]);
    expect(summarizeChanges(diff)).toBe('1 collection');
  });

  it('finds no change between a definition stored before sharing and the same one now', () => {
    const { before } = shared();
    expect(diffDefinitions(storedBeforeSharing(before), before).changes).toEqual([]);
  });

  it('merges sharing, its rule and the name each on its own', () => {
    const { before: base, after: theirs, groceries } = shared();
    const ours = copy(base);
    ours.collections[0]!.name = 'Shopping';
    const merged = mergeDefinitions(base, theirs, ours);
    expect(merged.definition.collections[0]).toMatchObject({
      id: groceries,
      name: 'Shopping',
      sharing: 'space',
    });
    expect(merged.conflicts).toEqual([]);

    const kept = copy(base);
    kept.collections[0]!.recordRule = 'author';
    const both = mergeDefinitions(base, theirs, kept);
    expect(both.definition.collections[0]).toMatchObject({
      sharing: 'space',
      recordRule: 'author',
    });
    expect(both.conflicts).toEqual([]);
  });
});

describe('AI edits of sharing', () => {
  it('checks, applies and summarises setCollectionSharing', () => {
    const { doc, groceries } = app();
    const ops = [
      {
        op: 'setCollectionSharing',
        collectionId: groceries,
        sharing: 'space',
        recordRule: 'author',
      },
    ];
    expect(validateEdits(doc, ops)).toEqual([]);
    expect(
      validateEdits(doc, [{ op: 'setCollectionSharing', collectionId: 'gone', sharing: 'space' }]),
    ).toEqual([{ path: 'operations.0', message: 'That collection no longer exists.' }]);
    expect(validateEdits(doc, [{ ...ops[0], sharing: 'public' }])[0]?.path).toBe(
      'operations.0.sharing',
    );
    expect(summarizeEdits(doc, ops as Parameters<typeof summarizeEdits>[1])).toEqual([
      'Change collection Groceries: share its records in a space, only the person who added a record can change it',
    ]);
  });
});

describe('the household shopping list template', () => {
  it('shares its items with anyone in the space and each chore with its author', () => {
    const template = APP_TEMPLATES.find((t) => t.id === 'household-shopping-list')!;
    const definition = template.build();
    expect(
      definition.collections.map((c) => [c.name, c.sharing, recordRuleOf(definition, c.id)]),
    ).toEqual([
      ['Items', 'space', 'anyone'],
      ['Chores', 'space', 'author'],
    ]);
    expect(definition.meta.description).toMatch(/shared with the people you invite/);
    const doc = newDoc();
    writeDefinition(doc, definition);
    expect(checkForPublish(doc).ok).toBe(true);
  });
});

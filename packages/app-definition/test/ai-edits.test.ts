import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import {
  type AiEdit,
  aiEditsJsonSchema,
  aiEditsModelSchema,
  parseModelEdits,
  type AppDefinition,
  applyEdits,
  changeParts,
  checkForPublish,
  DefinitionError,
  editableStructure,
  expandBlueprint,
  LIMITS,
  LOCAL_EDIT,
  readDefinition,
  suggestEdits,
  summarizeEdits,
  validateEdits,
  writeDefinition,
} from '../src/index';
import { idFactory, strictSchemaProblems } from './support';

function books(): AppDefinition {
  return expandBlueprint(
    {
      title: 'Reading list',
      description: '',
      icon: '📚',
      theme: { preset: 'harbor', accent: '' },
      collections: [
        {
          name: 'Books',
          fields: [
            { name: 'Title', type: 'text', required: true, choices: [] },
            { name: 'Author', type: 'text', required: false, choices: [] },
          ],
          samples: [['Secret sample title', 'Secret sample author']],
        },
        {
          name: 'Authors',
          fields: [{ name: 'Name', type: 'text', required: true, choices: [] }],
          samples: [],
        },
      ],
      screens: [
        { title: 'Books', icon: '📚', kind: 'list', collection: 'Books', text: '', components: [] },
      ],
      actions: [],
    },
    idFactory('b'),
  );
}

function setup() {
  const definition = books();
  const doc = new Y.Doc();
  writeDefinition(doc, definition);
  const collection = definition.collections[0]!;
  const screen = definition.screens[0]!;
  const list = screen.components.find((c) => c.type === 'list')!;
  return { definition, doc, collection, screen, list };
}

/** A Rating field added to a collection and shown as its list's subtitle. */
const ratingShown = (collectionId: string, listId: string): AiEdit[] => [
  {
    op: 'addField',
    ref: 'rating',
    collectionId,
    name: 'Rating',
    type: 'number',
    required: false,
    choices: [],
  },
  { op: 'setProperty', componentId: listId, props: { subtitleFieldId: 'rating' } },
];

describe('AI edits', () => {
  it('adds a field, shows it in the list, summarises it and applies it as one undo step', () => {
    const { doc, collection, list, screen } = setup();
    const ops: AiEdit[] = [
      ...ratingShown(collection.id, list.id),
      {
        op: 'addComponent',
        ref: 'avg',
        screenId: screen.id,
        type: 'stat',
        props: {
          label: 'Average rating',
          collectionId: collection.id,
          aggregate: 'average',
          fieldId: 'rating',
        },
      },
    ];
    expect(validateEdits(doc, ops)).toEqual([]);
    expect(summarizeEdits(doc, ops)).toEqual([
      'Add field Rating (number) to Books',
      'Show Rating in the Books list',
      'Add a stat to Books',
    ]);

    const undo = new Y.UndoManager(
      ['screens', 'components', 'collections', 'fields'].map((name) => doc.getMap(name)),
      { trackedOrigins: new Set([LOCAL_EDIT]) },
    );
    let transactions = 0;
    doc.on('afterTransaction', (tr) => {
      if (tr.origin === LOCAL_EDIT) transactions++;
    });
    applyEdits(doc, ops, idFactory('new'), LOCAL_EDIT);
    expect(transactions).toBe(1);
    const read = readDefinition(doc);
    const rating = read.collections[0]?.fields.find((f) => f.name === 'Rating');
    expect(rating?.type).toBe('number');
    const readList = read.screens[0]?.components.find((c) => c.type === 'list');
    expect(readList?.props).toMatchObject({ subtitleFieldId: rating?.id });
    const stat = read.screens[0]?.components.find((c) => c.type === 'stat');
    expect(stat?.props).toMatchObject({ fieldId: rating?.id });
    expect(checkForPublish(doc).ok).toBe(true);

    undo.undo();
    const after = readDefinition(doc);
    expect(after.collections[0]?.fields.map((f) => f.name)).toEqual(['Title', 'Author']);
    expect(after.screens[0]?.components.find((c) => c.type === 'list')?.props).toMatchObject({
      subtitleFieldId: collection.fields[1]?.id,
    });
    expect(after.screens[0]?.components.some((c) => c.type === 'stat')).toBe(false);
  });

  it('suggests a change without making it: the app as it is and as the operations would make it', () => {
    const { doc, collection, list, screen } = setup();
    const before = Y.encodeStateAsUpdate(doc);
    const ops: AiEdit[] = [
      ...ratingShown(collection.id, list.id),
      { op: 'addComponent', ref: 'line', screenId: screen.id, type: 'divider', props: {} },
    ];
    const { base, proposed } = suggestEdits(doc, ops, idFactory('new'));
    expect(Y.encodeStateAsUpdate(doc)).toEqual(before);
    expect(base).toEqual(readDefinition(doc));
    expect(changeParts(base, proposed).map((p) => `${p.change} ${p.name}`)).toEqual([
      'changed List “Books”',
      'added a divider',
      'added Rating',
    ]);
    // A list that does not fit the app changes nothing and says why.
    expect(() =>
      suggestEdits(doc, [{ ...ops[1]!, componentId: 'gone' } as AiEdit], idFactory('x')),
    ).toThrow(DefinitionError);
  });

  it('links two collections by refs, with a rollup and a formula over it', () => {
    const { doc, definition } = setup();
    const [books, authors] = definition.collections;
    const ops: AiEdit[] = [
      {
        op: 'addField',
        ref: 'writtenBy',
        collectionId: books!.id,
        name: 'Written by',
        type: 'relation',
        required: false,
        choices: [],
        target: authors!.id,
      },
      {
        op: 'addField',
        ref: 'bookCount',
        collectionId: authors!.id,
        name: 'Books',
        type: 'rollup',
        required: false,
        choices: [],
        through: 'writtenBy',
        throughCollection: books!.id,
        aggregate: 'count',
      },
      {
        op: 'addField',
        ref: 'prolific',
        collectionId: authors!.id,
        name: 'Prolific',
        type: 'formula',
        required: false,
        choices: [],
        formula: '{Books} >= 3',
      },
    ];
    expect(validateEdits(doc, ops)).toEqual([]);
    applyEdits(doc, ops, idFactory('new'), LOCAL_EDIT);
    const read = readDefinition(doc);
    const link = read.collections[0]!.fields.find((f) => f.name === 'Written by')!;
    expect(link).toMatchObject({ type: 'relation', target: authors!.id });
    expect(read.collections[1]!.fields.find((f) => f.name === 'Books')).toMatchObject({
      through: link.id,
      throughCollection: books!.id,
      aggregate: 'count',
    });
    expect(checkForPublish(doc).ok).toBe(true);
    // The strict form a model writes, with nulls for what it leaves out, reads the same.
    const parsed = parseModelEdits({
      operations: [
        {
          op: 'addField',
          ref: 'x',
          collectionId: books!.id,
          name: 'Score',
          type: 'formula',
          required: false,
          choices: [],
          formula: 'LEN({Title})',
          target: null,
          many: null,
          through: null,
          throughCollection: null,
          aggregate: null,
          aggregateFieldId: null,
        },
      ],
    });
    expect(parsed).toMatchObject({ ok: true, operations: [{ formula: 'LEN({Title})' }] });
  });

  it('names every operation that points at nothing, does not fit or breaks a limit', () => {
    const { doc, definition, list, screen } = setup();
    const otherField = definition.collections[1]!.fields[0]!.id;
    const problems = validateEdits(doc, [
      { op: 'renameCollection', collectionId: 'nope', name: 'X' },
      { op: 'setProperty', componentId: list.id, props: { emptyText: 'x'.repeat(500) } },
      { op: 'setProperty', componentId: list.id, props: { colour: 'red' } },
      { op: 'addComponent', ref: 'h', screenId: screen.id, type: 'heading', props: { level: 7 } },
      { op: 'removeComponent', componentId: 'gone' },
    ]);
    expect(problems.map((p) => p.path)).toEqual([
      'operations.0',
      'operations.1',
      'operations.2',
      'operations.3',
      'operations.4',
    ]);
    expect(problems[0]?.message).toBe('That collection no longer exists.');
    expect(problems[2]?.message).toBe('A list has no “colour”.');

    // A list of Books showing a field of Authors: the result would not publish.
    const wrong = validateEdits(doc, [
      { op: 'setProperty', componentId: list.id, props: { titleFieldId: otherField } },
    ]);
    expect(wrong).toEqual([
      {
        path: 'screens.0.components.1.props.titleFieldId',
        message:
          'This field belongs to another collection. Choose one of this collection’s fields.',
      },
    ]);

    const tooMany = Array.from({ length: 40 }, (_, i) => ({
      op: 'addScreen' as const,
      ref: `s${i}`,
      title: `Screen ${i}`,
    }));
    const big = new Y.Doc();
    writeDefinition(big, {
      ...definition,
      screens: Array.from({ length: LIMITS.screens - 1 }, (_, i) => ({
        ...definition.screens[0]!,
        id: `screen${i}`,
        components: [],
      })),
    });
    expect(validateEdits(big, tooMany.slice(0, 2))).toEqual([
      { path: 'operations.1', message: `An app can have at most ${LIMITS.screens} screens.` },
    ]);
  });

  it('refuses answers that are not operations', () => {
    const { doc } = setup();
    expect(validateEdits(doc, [{ op: 'runJavaScript', code: 'alert(1)' }])[0]?.path).toBe(
      'operations.0.op',
    );
    expect(validateEdits(doc, 'add a field')).not.toEqual([]);
  });

  it('changes nothing when the list does not fit', () => {
    const { doc, list } = setup();
    const before = Y.encodeStateVector(doc);
    expect(() =>
      applyEdits(
        doc,
        [
          { op: 'addScreen', ref: 's', title: 'New' },
          { op: 'setProperty', componentId: list.id, props: { colour: 'red' } },
        ],
        idFactory('x'),
        LOCAL_EDIT,
      ),
    ).toThrow('This change no longer fits the app: A list has no “colour”.');
    expect(Y.encodeStateVector(doc)).toEqual(before);
  });

  it('changes nothing when an operation fails half-way through the list', () => {
    const { doc } = setup();
    const before = Y.encodeStateVector(doc);
    let made = 0;
    // The second id cannot be made: the first screen was already added, on the copy only.
    const failing = () => {
      if (++made > 1) throw new Error('no more ids');
      return `new-${made}`;
    };
    expect(() =>
      applyEdits(
        doc,
        [
          { op: 'addScreen', ref: 'a', title: 'One' },
          { op: 'addScreen', ref: 'b', title: 'Two' },
        ],
        failing,
        LOCAL_EDIT,
      ),
    ).toThrow('no more ids');
    expect(Y.encodeStateVector(doc)).toEqual(before);
    expect(readDefinition(doc).screens.map((s) => s.title)).toEqual(['Books']);
  });

  it('applies with the ids it was given, keeping the document’s own client id', () => {
    const { doc } = setup();
    const clientID = doc.clientID;
    applyEdits(doc, [{ op: 'addScreen', ref: 'a', title: 'One' }], () => 'screen-one', LOCAL_EDIT);
    expect(readDefinition(doc).screens.map((s) => [s.id, s.title])).toContainEqual([
      'screen-one',
      'One',
    ]);
    expect(doc.clientID).toBe(clientID);
  });

  it('shows the model the structure with ids, and never a record’s values', () => {
    const { doc, collection } = setup();
    const structure = editableStructure(doc);
    const text = JSON.stringify(structure);
    expect(text).toContain(collection.id);
    expect(text).toContain('"Title"');
    expect(text).not.toContain('Secret sample');
    expect(aiEditsJsonSchema()).toMatchObject({ type: 'object' });
  });

  it('asks the model in a form strict structured output accepts, and reads both forms', () => {
    expect(strictSchemaProblems(aiEditsJsonSchema())).toEqual([]);

    const strict = aiEditsModelSchema.parse({
      operations: [
        { op: 'setScreen', screenId: 's1', title: 'Home', icon: null },
        {
          op: 'addComponent',
          ref: 'h',
          screenId: 's1',
          type: 'heading',
          index: null,
          props: [
            { name: 'text', value: 'Hello' },
            { name: 'level', value: 1 },
          ],
        },
      ],
    });
    expect(parseModelEdits(strict)).toEqual({
      ok: true,
      operations: [
        { op: 'setScreen', screenId: 's1', title: 'Home' },
        {
          op: 'addComponent',
          ref: 'h',
          screenId: 's1',
          type: 'heading',
          props: { text: 'Hello', level: 1 },
        },
      ],
    });
    expect(parseModelEdits({ operations: [{ op: 'removeComponent', componentId: 'c1' }] })).toEqual(
      {
        ok: true,
        operations: [{ op: 'removeComponent', componentId: 'c1' }],
      },
    );
    const bad = parseModelEdits({ operations: [{ op: 'eval', code: 'x' }] });
    expect(bad.ok).toBe(false);
  });
});

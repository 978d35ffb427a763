import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { activityFieldsOf, type DetectedChange, detectChanges } from '../../src/activity/detect';
import { activityText, joinNames } from '../../src/activity/message';

/*
 * What a space's activity reads from a transaction (src/activity/detect.ts) and how a batch reads
 * (src/activity/message.ts): records added, done-like fields turned true — from what Yjs
 * integrated into the server's copy, so an update sent again, or one that changes nothing, tells
 * nothing.
 */

const shape = activityFieldsOf([
  {
    id: 'items',
    sharing: 'space',
    fields: [
      { id: 'qty', type: 'number' },
      { id: 'name', type: 'text' },
      { id: 'note', type: 'text' },
      { id: 'bought', type: 'boolean' },
      { id: 'urgent', type: 'boolean' },
    ],
  },
  { id: 'private', sharing: 'private', fields: [{ id: 'name', type: 'text' }] },
  { id: 'plain', sharing: 'space', fields: [{ id: 'n', type: 'number' }] },
]);

/** The server's copy, and what each update a client sends to it is found to do. */
function serverSide() {
  const server = new Y.Doc();
  const seen: DetectedChange[][] = [];
  server.on('afterTransaction', (tr: Y.Transaction) => {
    const changes = detectChanges(server, tr, shape);
    if (changes.length > 0) seen.push(changes);
  });
  return { server, seen };
}

/** A client's copy in step with the server; each change it makes is applied there. */
function clientOf(server: Y.Doc) {
  const client = new Y.Doc();
  Y.applyUpdate(client, Y.encodeStateAsUpdate(server));
  const sent: Uint8Array[] = [];
  client.on('update', (update: Uint8Array) => {
    sent.push(update);
    Y.applyUpdate(server, update, { source: 'connection' });
  });
  return { client, sent, records: client.getMap<Y.Map<unknown>>('records') };
}

function addRecord(
  records: Y.Map<Y.Map<unknown>>,
  id: string,
  values: Record<string, unknown>,
  collectionId = 'items',
) {
  const record = new Y.Map<unknown>();
  record.set('collectionId', collectionId);
  record.set('values', new Y.Map<unknown>(Object.entries(values)));
  record.set('authorId', 'ben');
  records.set(id, record);
}
const valuesOf = (records: Y.Map<Y.Map<unknown>>, id: string) =>
  records.get(id)!.get('values') as Y.Map<unknown>;

describe('space activity: what a transaction did', () => {
  it('reads the name and done-like fields of each shared collection', () => {
    expect(shape.get('items')).toEqual({ nameFieldId: 'name', doneFieldId: 'bought' });
    expect(shape.get('plain')).toEqual({ nameFieldId: null, doneFieldId: null });
    expect(shape.has('private')).toBe(false);
    expect(activityFieldsOf('not a list').size).toBe(0);
  });

  it('finds the records added, once, with their names as they are', () => {
    const { server, seen } = serverSide();
    const { client, records, sent } = clientOf(server);
    client.transact(() => {
      addRecord(records, 'r1', { name: '  Eggs ', bought: false });
      addRecord(records, 'r2', { name: 'x'.repeat(60) });
      addRecord(records, 'r3', { n: 1 }, 'plain');
      addRecord(records, 'r4', { name: 'Secret' }, 'private');
    });
    expect(seen).toEqual([
      [
        { kind: 'added', recordId: 'r1', name: 'Eggs' },
        { kind: 'added', recordId: 'r2', name: `${'x'.repeat(39)}…` },
        { kind: 'added', recordId: 'r3', name: null },
      ],
    ]);
    // The same update again (a provider resends what it is unsure of): Yjs integrates nothing.
    Y.applyUpdate(server, sent[0]!, { source: 'connection' });
    expect(seen).toHaveLength(1);
  });

  it('finds a done-like field turned true, and nothing else', () => {
    const { server, seen } = serverSide();
    const { client, records } = clientOf(server);
    addRecord(records, 'milk', { name: 'Milk', bought: false });
    addRecord(records, 'bread', { name: 'Bread', bought: true });
    seen.length = 0;
    valuesOf(records, 'milk').set('bought', true);
    expect(seen).toEqual([[{ kind: 'completed', recordId: 'milk', name: 'Milk' }]]);
    // Already true, another yes/no field, another field, turned false: none completes it.
    valuesOf(records, 'bread').set('bought', true);
    valuesOf(records, 'milk').set('urgent', true);
    valuesOf(records, 'milk').set('note', 'semi-skimmed');
    valuesOf(records, 'milk').set('bought', false);
    expect(seen).toHaveLength(1);
    // Back to true: completed again.
    valuesOf(records, 'milk').set('bought', true);
    expect(seen).toHaveLength(2);
    // Turned false and back to true within one transaction: it was true before, so nothing.
    client.transact(() => {
      valuesOf(records, 'bread').set('bought', false);
      valuesOf(records, 'bread').set('bought', true);
    });
    expect(seen).toHaveLength(2);
    valuesOf(records, 'bread').set('bought', false);
    valuesOf(records, 'bread').set('bought', true);
    expect(seen.at(-1)).toEqual([{ kind: 'completed', recordId: 'bread', name: 'Bread' }]);
    // Added already done: added only.
    addRecord(records, 'jam', { name: 'Jam', bought: true });
    expect(seen.at(-1)).toEqual([{ kind: 'added', recordId: 'jam', name: 'Jam' }]);
  });

  it('tells nothing for a record added and deleted in one transaction, or deleted', () => {
    const { server, seen } = serverSide();
    const { client, records } = clientOf(server);
    client.transact(() => {
      addRecord(records, 'gone', { name: 'Gone' });
      records.delete('gone');
    });
    addRecord(records, 'kept', { name: 'Kept' });
    seen.length = 0;
    records.delete('kept');
    expect(seen).toEqual([]);
  });
});

describe('space activity: how a batch reads', () => {
  const names = (id: string) => ({ ben: 'Ben', ana: 'Ana', cleo: 'Cleo', dan: 'Dan' })[id] ?? '?';
  const added = (authorId: string, recordId: string, name: string | null = null) => ({
    authorId,
    kind: 'added' as const,
    recordId,
    name,
  });
  it('names one item, counts several, and names the people', () => {
    expect(activityText([added('ben', 'a', 'Eggs')], 'Our flat', names)).toBe(
      'Ben added Eggs to Our flat',
    );
    expect(activityText([added('ben', 'a', null)], 'Our flat', names)).toBe(
      'Ben added an item to Our flat',
    );
    expect(
      activityText(
        [added('ben', 'a', 'Eggs'), added('ben', 'b', 'Milk'), added('ben', 'c', 'Tea')],
        'Our flat',
        names,
      ),
    ).toBe('Ben added 3 items to Our flat');
    expect(
      activityText(
        [
          ...['a', 'b', 'c'].map((id) => added('ben', id)),
          ...['d', 'e'].map((id) => added('ana', id)),
          { authorId: 'ana', kind: 'completed', recordId: 'f', name: 'Milk' },
          // The same record twice counts once.
          added('ana', 'e'),
        ],
        'Our flat',
        names,
      ),
    ).toBe('Ben and Ana added 5 items to Our flat; Ana completed Milk');
    expect(
      activityText(
        [{ authorId: 'ana', kind: 'completed', recordId: 'f', name: 'Milk' }],
        'Our flat',
        names,
      ),
    ).toBe('Ana completed Milk');
  });

  it('joins names as a sentence does', () => {
    expect(joinNames([])).toBe('Someone');
    expect(joinNames(['Ben', 'Ana', 'Cleo'])).toBe('Ben, Ana and Cleo');
    expect(joinNames(['Ben', 'Ana', 'Cleo', 'Dan'])).toBe('Ben, Ana and 2 others');
  });
});

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { type Collection, type FieldValue, readVisitorData } from '@pipit/app-definition';
import { createId, documentName, type SpaceSummary } from '@pipit/protocol';
import type { ApiClient } from '../support/api-client';
import { type AccountsHarness, startAccountsServer } from '../support/engines';
import { acknowledged, connectProvider, type TestProvider } from '../support/provider';
import { definitionOf, publishDefinition, verifyEmail } from '../support/publishing';
import { storedSpaceRecords } from '../support/space-records';

/*
 * Record values of the new shapes, malformed, sent over the real socket into a visitor's data
 * document and a shared space's, as a device that skips the app's checks would. The server judges
 * who changes which record and where in it (docs/decisions/0011-…), never what a value is: a value
 * is one Yjs item, which Yjs integrates whole whatever it holds, and what a field may hold depends
 * on the app's version the device runs. So each of these is kept exactly as sent, the connection
 * stays open, and every device reads it safely: readVisitorData keeps only plain values
 * (packages/runtime/test/record-values.property.test.ts reads those through every other reader).
 * What the server does refuse is structure: Yjs types nested inside a space's record past the
 * record's own levels.
 */

const HEX = 'ab'.repeat(32);
/** A relation's value past LIMITS.relationLinks: kept whole, read up to the limit by readers. */
const MANY_LINKS = Array.from({ length: 5_000 }, () => createId());

/** One malformed value per case, under the field id it claims to fill. */
const CASES: Array<{ what: string; field: string; value: unknown; reads: FieldValue | 'dropped' }> =
  [
    { what: 'a relation past its limit', field: 'links', value: MANY_LINKS, reads: MANY_LINKS },
    { what: 'a relation of numbers', field: 'links', value: [1, 2, 3], reads: 'dropped' },
    { what: 'a relation of nested lists', field: 'links', value: [['a'], ['b']], reads: 'dropped' },
    { what: 'a relation of objects', field: 'links', value: [{ id: 'x' }], reads: 'dropped' },
    { what: 'a relation to nowhere', field: 'links', value: ['nope', ''], reads: ['nope', ''] },
    {
      what: 'a photo with a bad hash and a negative size',
      field: 'photo',
      value: 'sha256:zz;-1;image/png;x.png',
      reads: 'sha256:zz;-1;image/png;x.png',
    },
    {
      what: 'a photo with a huge name',
      field: 'photo',
      value: `sha256:${HEX};10;image/png;${'n'.repeat(20_000)}`,
      reads: `sha256:${HEX};10;image/png;${'n'.repeat(20_000)}`,
    },
    {
      what: 'a photo that is a text file',
      field: 'photo',
      value: `sha256:${HEX};10;text%2Fplain;notes.txt`,
      reads: `sha256:${HEX};10;text%2Fplain;notes.txt`,
    },
    { what: 'a photo as a number', field: 'photo', value: 42, reads: 42 },
    { what: 'choices not offered', field: 'tags', value: ['nope', 'x'], reads: ['nope', 'x'] },
    { what: 'a value under a formula', field: 'total', value: 1234, reads: 1234 },
    { what: 'a value under a rollup', field: 'count', value: 'lots', reads: 'lots' },
    { what: 'a rating of text', field: 'stars', value: 'abc', reads: 'abc' },
    { what: 'a rating past its scale', field: 'stars', value: 99, reads: 99 },
    { what: 'an amount too large', field: 'price', value: 1e308, reads: 1e308 },
    { what: 'an amount that is not a number', field: 'price', value: NaN, reads: 'dropped' },
    { what: 'a negative duration', field: 'time', value: -5, reads: -5 },
    { what: 'a moment that is not one', field: 'when', value: 'yesterday', reads: 'yesterday' },
    { what: 'a moment as an object', field: 'when', value: { at: 1 }, reads: 'dropped' },
  ];

describe('record values of the new shapes, malformed, through sync', () => {
  let h: AccountsHarness;
  let visitor: { client: ApiClient; userId: string };
  let appId: string;
  let spaceId: string;
  let collectionId: string;

  beforeAll(async () => {
    h = await startAccountsServer('sqlite', { storeDebounceMs: 50 });
    const creator = await h.signup('shapes_creator');
    await verifyEmail(h, creator);
    const client = await h.signup('shapes_visitor');
    visitor = { client, userId: await verifyEmail(h, client) };
    const definition = definitionOf({ title: 'Shapes' }, 'household-shopping-list');
    collectionId = definition.collections.find((c: Collection) => c.sharing === 'space')!.id;
    appId = await publishDefinition(h, creator, definition);
    const made = await client.post<{ space: SpaceSummary }>(`/api/apps/${appId}/spaces`, {
      name: 'Shapes',
    });
    expect(made.status).toBe(201);
    spaceId = made.body.space.id;
  }, 60_000);
  afterAll(() => h?.close());

  /** A record as the app writes one, with `values` as given (each one plain Yjs item). */
  function record(values: Record<string, unknown>) {
    const entity = new Y.Map<unknown>();
    entity.set('collectionId', collectionId);
    entity.set('values', new Y.Map<unknown>(Object.entries(values)));
    entity.set('createdAt', 1);
    entity.set('updatedAt', 1);
    entity.set('authorId', visitor.userId);
    return entity;
  }

  async function open(name: string): Promise<TestProvider> {
    const side = connectProvider({ url: h.pipit.url, name, cookie: visitor.client.cookie });
    expect(await side.ready).toBe(true);
    return side;
  }

  const closeReason = (side: TestProvider) =>
    new Promise<string>((resolve) =>
      side.provider.on('close', ({ event }: { event: { reason: string } }) =>
        resolve(event.reason),
      ),
    );

  it.each(['data', 'space'] as const)(
    'keeps each malformed value in a %s document as sent, and reads it safely',
    async (kind) => {
      const name =
        kind === 'data'
          ? documentName({ kind, appId, userId: visitor.userId })
          : documentName({ kind, spaceId });
      const side = await open(name);
      let closed: string | null = null;
      void closeReason(side).then((reason) => (closed = reason));
      const recordIds = CASES.map(() => createId());
      try {
        const records = side.doc.getMap<Y.Map<unknown>>('records');
        side.doc.transact(() => {
          CASES.forEach((c, i) => records.set(recordIds[i]!, record({ [c.field]: c.value })));
        });
        await acknowledged(side.provider);
        expect(closed).toBeNull();
      } finally {
        side.destroy();
      }
      const stored = await storedSpaceRecords(h.pipit.server.storage, name);
      // Read again from storage as another device would, through the app's tolerant reader.
      const { snapshot, log } = await h.pipit.server.storage.documents.loadWithLog(name);
      const doc = new Y.Doc();
      if (snapshot) Y.applyUpdate(doc, snapshot);
      for (const entry of log) Y.applyUpdate(doc, entry.update);
      const read = new Map(readVisitorData(doc).records.map((r) => [r.id, r.values]));
      doc.destroy();
      CASES.forEach((c, i) => {
        const id = recordIds[i]!;
        const kept = stored[id]?.values?.[c.field];
        if (typeof c.value === 'number' && Number.isNaN(c.value)) expect(kept, c.what).toBeNaN();
        else expect(kept, c.what).toEqual(c.value);
        expect(read.get(id), c.what).toEqual(c.reads === 'dropped' ? {} : { [c.field]: c.reads });
      });
    },
  );

  it('integrates random values of any shape exactly as sent, each read as a plain value or none', async () => {
    const value: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
      v: fc.oneof(
        { depthSize: 'small' },
        fc.constantFrom(null, true, false, 0, 1, -1, 5.5, 1e308, NaN, Infinity, ''),
        fc.string(),
        fc.constantFrom(`sha256:${HEX};1;image%2Fpng;a.png`, 'sha256:;;;', '★★★', '1:30'),
        fc.array(fc.string({ maxLength: 30 }), { maxLength: 120 }),
        fc.array(tie('v'), { maxLength: 3 }),
        fc.dictionary(fc.string({ maxLength: 5 }), tie('v'), {
          maxKeys: 2,
          noNullPrototype: true,
        }),
      ),
    })).v;
    const fields = fc.constantFrom('links', 'photo', 'tags', 'total', 'stars', 'when', 'name');
    const name = documentName({ kind: 'data', appId, userId: visitor.userId });
    const side = await open(name);
    let closed: string | null = null;
    void closeReason(side).then((reason) => (closed = reason));
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.dictionary(fields, value, { maxKeys: 4, noNullPrototype: true }), {
            minLength: 1,
            maxLength: 4,
          }),
          async (batch) => {
            const records = side.doc.getMap<Y.Map<unknown>>('records');
            side.doc.transact(() => {
              for (const values of batch) records.set(createId(), record(values));
            });
            await acknowledged(side.provider);
            expect(closed).toBeNull();
          },
        ),
        { numRuns: 25, seed: 20261129 },
      );
    } finally {
      side.destroy();
    }
    const sent = readVisitorData(side.doc);
    const { snapshot, log } = await h.pipit.server.storage.documents.loadWithLog(name);
    const doc = new Y.Doc();
    if (snapshot) Y.applyUpdate(doc, snapshot);
    for (const entry of log) Y.applyUpdate(doc, entry.update);
    // The server holds what the device holds: every record, every value, nothing lost or added.
    expect(Y.encodeStateVector(doc)).toEqual(Y.encodeStateVector(side.doc));
    const stored = readVisitorData(doc);
    doc.destroy();
    expect(stored).toEqual(sent);
    for (const r of stored.records) {
      for (const v of Object.values(r.values)) {
        const plain =
          v === null ||
          ['string', 'boolean'].includes(typeof v) ||
          (typeof v === 'number' && Number.isFinite(v)) ||
          (Array.isArray(v) && v.every((item) => typeof item === 'string'));
        expect(plain, JSON.stringify(v)).toBe(true);
      }
    }
  }, 60_000);

  it('refuses Yjs types nested in a space’s record past its own levels, and keeps nothing', async () => {
    const name = documentName({ kind: 'space', spaceId });
    const before = await storedSpaceRecords(h.pipit.server.storage, name);
    const side = await open(name);
    try {
      const closed = closeReason(side);
      const inner = new Y.Array<unknown>();
      inner.push([new Y.Array<unknown>()]);
      const links = new Y.Array<unknown>();
      links.push([inner]);
      side.doc.transact(() => {
        side.doc.getMap<Y.Map<unknown>>('records').set(createId(), record({ links }));
      });
      expect(await closed).toBe('update_rejected');
    } finally {
      side.destroy();
    }
    expect(await storedSpaceRecords(h.pipit.server.storage, name)).toEqual(before);
  });

  it('keeps the same nesting in a person’s own data, where it is theirs alone, and reads it as nothing', async () => {
    const name = documentName({ kind: 'data', appId, userId: visitor.userId });
    const side = await open(name);
    const id = createId();
    try {
      const inner = new Y.Array<unknown>();
      inner.push([new Y.Array<unknown>()]);
      const links = new Y.Array<unknown>();
      links.push([inner]);
      side.doc.transact(() => {
        side.doc.getMap<Y.Map<unknown>>('records').set(id, record({ links, name: 'kept' }));
      });
      await acknowledged(side.provider);
    } finally {
      side.destroy();
    }
    const stored = await storedSpaceRecords(h.pipit.server.storage, name);
    expect(stored[id]?.values).toEqual({ links: [[[]]], name: 'kept' });
    const again = await open(name);
    try {
      const read = readVisitorData(again.doc).records.find((r) => r.id === id);
      expect(read?.values).toEqual({ name: 'kept' });
    } finally {
      again.destroy();
    }
  });
});

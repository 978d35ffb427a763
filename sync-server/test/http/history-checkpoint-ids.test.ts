import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Checkpoint, createId } from '@pipit/protocol';
import { MIGRATION_NAMES } from '../../src/storage/migrations';
import { type ApiClient, errorCode } from '../support/api-client';
import { type AccountsHarness, ENGINES, startAccountsServer } from '../support/engines';
import { createApp, definitionOf } from '../support/publishing';
import { storageBefore } from '../support/migrated-database';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * Checkpoint ids were one namespace across all apps — posting another app's
 * checkpoint id answered `200 {checkpoint: null}` (it exists somewhere) and dropped the device's
 * checkpoint — and a `createdAt` of 0 was taken. Ids are now each app's own, and a device's time
 * must be plausible (docs/product/history.md).
 */
describe.each(ENGINES)('checkpoint ids and times (%s)', (engine) => {
  let h: AccountsHarness;
  let ada: ApiClient;
  let ben: ApiClient;

  type Saved = { checkpoint: Checkpoint | null };
  type One = { checkpoint: Checkpoint; definition: { meta: { title: string } } };

  beforeAll(async () => {
    h = await startAccountsServer(engine);
    ada = await h.signup(`ada_ci_${engine}`);
    ben = await h.signup(`ben_ci_${engine}`);
  });
  afterAll(() => h.close());

  it('keeps a device’s checkpoint whose id another app holds, answering as for any new id', async () => {
    const adas = await createApp(h, ada, definitionOf({ title: 'Ada’s' }));
    const bens = await createApp(h, ben, definitionOf({ title: 'Ben’s' }));
    const id = createId();
    const first = await ada.post<Saved>(`/api/apps/${adas}/checkpoints`, {
      id,
      name: 'Ada’s own',
      definition: definitionOf({ title: 'Ada’s secret plan' }),
    });
    expect(first.status).toBe(201);

    // Ben's device happens on (or guesses) the same id: his checkpoint is saved, as any new one.
    const body = { id, name: 'Ben’s own', definition: definitionOf({ title: 'Ben’s plan' }) };
    const second = await ben.post<Saved>(`/api/apps/${bens}/checkpoints`, body);
    expect(second.status).toBe(201);
    expect(second.body.checkpoint).toMatchObject({ id, kind: 'manual', name: 'Ben’s own' });
    const again = await ben.post<Saved>(`/api/apps/${bens}/checkpoints`, body);
    expect(again.status).toBe(200);
    expect(again.body.checkpoint).toMatchObject({ id, name: 'Ben’s own' });

    const his = await ben.get<One>(`/api/apps/${bens}/checkpoints/${id}`);
    expect(his.body.definition.meta.title).toBe('Ben’s plan');
    expect(his.body.checkpoint.name).toBe('Ben’s own');
    const hers = await ada.get<One>(`/api/apps/${adas}/checkpoints/${id}`);
    expect(hers.body.definition.meta.title).toBe('Ada’s secret plan');
    expect(hers.body.checkpoint.name).toBe('Ada’s own');
    expect(JSON.stringify((await ben.get(`/api/apps/${bens}/checkpoints`)).body)).not.toContain(
      'Ada’s own',
    );

    // Deleting his removes only his.
    expect((await ben.request('DELETE', `/api/apps/${bens}/checkpoints/${id}`)).status).toBe(204);
    expect((await ada.get(`/api/apps/${adas}/checkpoints/${id}`)).status).toBe(200);
  });

  it('refuses a time no device could have given (0, a year ago, days ahead) with what to do', async () => {
    const app = await createApp(h, ada, definitionOf({ title: 'Times' }));
    const save = (createdAt: number) =>
      ada.post<Saved>(`/api/apps/${app}/checkpoints`, {
        id: createId(),
        name: 'At a time',
        createdAt,
        definition: definitionOf(),
      });
    const named = async () =>
      (
        await ada.get<{ checkpoints: Checkpoint[] }>(`/api/apps/${app}/checkpoints`)
      ).body.checkpoints.filter((c) => c.kind === 'manual').length;
    for (const createdAt of [0, 1, Date.now() - 400 * DAY, Date.now() + 3 * DAY]) {
      const refused = await save(createdAt);
      expect([refused.status, errorCode(refused)]).toEqual([400, 'validation_failed']);
      const error = (refused.body as unknown as { error: { message: string; fields: object } })
        .error;
      expect(error.message).toMatch(/clock is wrong\. Set its date and time/);
      expect(error.fields).toHaveProperty('createdAt');
    }
    expect(await named()).toBe(0);

    // Made offline hours ago, or on a clock a little ahead: kept, never later than the server's.
    const past = Date.now() - 5 * HOUR;
    expect((await save(past)).body.checkpoint?.createdAt).toBe(past);
    const ahead = await save(Date.now() + HOUR);
    expect(ahead.status).toBe(201);
    expect(ahead.body.checkpoint!.createdAt).toBeLessThanOrEqual(Date.now());
    expect(await named()).toBe(2);
  });
});

const PER_APP = '0016_checkpoint_ids_per_app_and_checked_remix_bases';

/** A database from before checkpoint ids were each app's: its checkpoints and remixes carry over. */
describe.each(ENGINES)(`migration ${PER_APP} on %s`, (engine) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  const databaseBefore = (seed: (db: Kysely<unknown>) => Promise<void>) =>
    storageBefore(engine, PER_APP, seed, cleanups);

  it('keeps every checkpoint, lets another app use its id, and trusts no remix base it did not check', async () => {
    const definition = new Uint8Array([31, 139, 8, 0, 255]);
    const storage = await databaseBefore(async (db) => {
      await sql`
        INSERT INTO users (id, username, email, password_hash, avatar, created_at)
        VALUES ('u1', 'ada', 'ada@example.org', 'x', '{"kind":"emoji","emoji":"🐦","color":"#1a7f5a"}', 1)
      `.execute(db);
      for (const [id, forkedFrom] of [
        ['a1', null],
        ['a2', 'a1'],
      ] as const) {
        await sql`INSERT INTO app_ids (id, owner_id, registered_at) VALUES (${id}, 'u1', 1)`.execute(
          db,
        );
        await sql`
          INSERT INTO apps (id, owner_id, title, forked_from, forked_from_version, created_at, updated_at)
          VALUES (${id}, 'u1', ${id}, ${forkedFrom}, ${forkedFrom ? 1 : null}, 1, 1)
        `.execute(db);
      }
      await sql`
        INSERT INTO checkpoints (id, app_id, kind, name, version, created_at, created_by, author_ids, changes, definition_hash, definition, size)
        VALUES ('c1', 'a1', 'manual', 'Kept', null, 5, 'u1', '["u1"]', '{}', 'h', ${definition}, 5)
      `.execute(db);
    });

    expect(await storage.appliedMigrations()).toEqual(MIGRATION_NAMES);
    expect(await storage.checkpoints.list('a1')).toMatchObject([
      { id: 'c1', kind: 'manual', name: 'Kept', createdAt: 5, createdBy: { id: 'u1' } },
    ]);
    expect(await storage.checkpoints.definition('a1', 'c1')).toEqual(definition);
    const same = {
      id: 'c1',
      appId: 'a2',
      kind: 'manual' as const,
      name: 'Another app’s',
      version: null,
      createdAt: 6,
      createdById: null,
      authorIds: [],
      changesJson: '{}',
      definitionHash: 'h2',
      definition,
      size: 5,
    };
    expect(await storage.checkpoints.insert(same)).toBe(true);
    expect(await storage.checkpoints.insert(same)).toBe(false);
    expect((await storage.checkpoints.get('a1', 'c1'))?.name).toBe('Kept');
    expect((await storage.checkpoints.get('a2', 'c1'))?.name).toBe('Another app’s');
    expect(await storage.apps.get('a2')).toMatchObject({
      forkedFrom: 'a1',
      forkedFromVersion: 1,
      forkedFromPublicAt: null,
    });
  });
});

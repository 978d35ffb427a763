import { beforeAll, describe, expect, it } from 'vitest';
import { MIGRATION_NAMES } from '../../src/storage/migrations';
import { accountIdOf } from '../support/api-client';
import { emptyDatabase, ENGINES, logIn, ROOMY_RATE_LIMITS } from '../support/engines';
import { migrateTo } from '../support/migrated-database';
import { publish } from '../support/publishing';
import { startPipit } from '../support/start-server';
import { readSpaceDocumentAs } from '../support/visitor-data';
import { fixtureFile, hasMigration, loadFixture, schemaText } from './fixture-databases';
import {
  ADA,
  ADA_NAME,
  APP_TITLE,
  BEN,
  BEN_RECORDS,
  CHECKPOINT_NAME,
  CYD,
  DRAFT_NAME,
  readDataDocumentAs,
  retitle,
  SPACE_NAME,
  SPACE_RECORDS,
  titleOf,
} from './scenario';

/*
 * Upgrades, tested (docs/operations.md#testing-upgrades): for every migration, the database the
 * first release with it left (fixtures/, made by make-fixtures.ts) is loaded, migrated by today's
 * server as it starts, and then used through the API by the people in it.
 */

describe.each(ENGINES)('a database an earlier Pipit made, upgraded (%s)', (engine) => {
  /** The schema today's migrations make at each point, to compare each fixture's with. */
  const schemas = new Map<string, string>();

  beforeAll(async () => {
    const fresh = await emptyDatabase(engine);
    try {
      for (const migration of MIGRATION_NAMES) {
        await migrateTo(engine, fresh.location, migration);
        schemas.set(migration, await schemaText(engine, fresh.location));
      }
    } finally {
      await fresh.drop();
    }
  });

  it.each(MIGRATION_NAMES)('the first release with %s', async (migration) => {
    const since = (later: string) => hasMigration(migration, later);
    const target = await emptyDatabase(engine);
    try {
      await loadFixture(engine, fixtureFile(engine, migration), target.location);
      // The fixture's schema is what the shipped migrations still make: none was changed.
      expect(await schemaText(engine, target.location)).toBe(schemas.get(migration));

      const pipit = await startPipit({
        storage: await target.open(),
        rateLimits: ROOMY_RATE_LIMITS,
        env: { HUMAN_CHECK_DIFFICULTY: '500', ...target.env },
      });
      const h = { pipit };
      try {
        const ada = await logIn(pipit.url, ADA);
        const profile = await ada.get<{ displayName: string }>(`/api/profiles/${ADA}`);
        expect(profile.body.displayName).toBe(ADA_NAME);
        // A deleted account's name stays held, wherever that release kept it.
        const held = await ada.get<{ available: boolean }>(`/api/usernames/${CYD}`);
        expect(held.body.available).toBe(false);
        const ben = await logIn(pipit.url, BEN);

        const apps = await ada.get<{ apps: Array<{ id: string; title: string }> }>('/api/apps');
        const app = apps.body.apps.find((a) => a.title === APP_TITLE);
        if (since('0003_apps_and_update_log')) {
          expect(app, 'ada’s app is listed').toBeDefined();
          const appId = app!.id;
          expect(await titleOf(h, ada, appId)).toBe(APP_TITLE);
          // Written by one, read by the collaborator: the migrated document takes edits.
          await retitle(h, ada, appId, `${APP_TITLE}, upgraded`);
          expect(await titleOf(h, ben, appId)).toBe(`${APP_TITLE}, upgraded`);

          if (since('0004_publishing')) {
            const published = await ben.get<{ version: number; title: string }>(
              `/api/published/${appId}`,
            );
            expect(published.body).toMatchObject({ version: 1, title: APP_TITLE });
            const notes = await readDataDocumentAs(
              pipit.url,
              { appId, userId: await accountIdOf(ben) },
              ben.cookie,
            );
            expect(notes).toEqual({ opened: true, records: BEN_RECORDS.length });
            const again = await publish(ada, appId);
            expect(again.status).toBe(201);
            expect(again.body.latestVersion).toBe(2);
          }
          if (since('0011_checkpoints')) {
            const history = await ada.get<{ checkpoints: Array<{ kind: string; name: string }> }>(
              `/api/apps/${appId}/checkpoints`,
            );
            expect(history.body.checkpoints.map((c) => c.name)).toContain(CHECKPOINT_NAME);
          }
          if (since('0013_spaces')) {
            const spaces = await ben.get<{ spaces: Array<{ id: string; name: string }> }>(
              `/api/apps/${appId}/spaces`,
            );
            const space = spaces.body.spaces.find((s) => s.name === SPACE_NAME);
            expect(space, 'ben’s space is listed').toBeDefined();
            expect(await readSpaceDocumentAs(pipit.url, space!.id, ben.cookie)).toEqual({
              opened: true,
              records: SPACE_RECORDS.length,
            });
          }
          if (since('0029_app_drafts')) {
            const drafts = await ada.get<{ drafts: Array<{ name: string }> }>(
              `/api/apps/${appId}/drafts`,
            );
            expect(drafts.body.drafts.map((d) => d.name)).toEqual([DRAFT_NAME]);
          }
        } else {
          expect(app).toBeUndefined();
        }

        // Something new on the old data: an app registered, as today's Pipit does.
        const made = await ada.post<{ app: { id: string } }>('/api/apps', {
          id: 'upgraded'.padEnd(26, 'a'),
          title: 'Made after the upgrade',
        });
        expect(made.status).toBe(201);
      } finally {
        await pipit.close();
      }
    } finally {
      await target.drop();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type AppDefinition,
  type PortableApp,
  readPipitFile,
  setMeta,
  writePipitFile,
} from '@pipit/app-definition';
import { type AppChangeList, type CheckpointList, createId, HISTORY_LIMITS } from '@pipit/protocol';
import { type ApiClient, errorCode } from '../support/api-client';
import { type AccountsHarness, ENGINES, startAccountsServer } from '../support/engines';
import { download, importFile } from '../support/portable';
import { acknowledged, connectProvider } from '../support/provider';
import { createApp, definitionOf } from '../support/publishing';
import { sleep } from '../support/timing';

const MINUTE = 60_000;

type FileCheckpoint = PortableApp['checkpoints'][number];

/** A `.pipit` file from another server: one app with these checkpoints (oldest first). */
function fileWith(checkpoints: FileCheckpoint[], title = 'Imported'): Uint8Array {
  return writePipitFile({
    origin: 'https://elsewhere.example',
    exportedAt: Date.now(),
    kind: 'app',
    apps: [
      {
        id: createId(),
        title,
        definition: definitionOf({ title }),
        versions: [],
        checkpoints,
        images: [],
        data: null,
      },
    ],
  });
}

/**
 * The server and this test share one event loop: after seconds of work that holds it (a large file
 * written, then imported), the keep-alive timers that expired meanwhile close idle sockets. Let
 * them, before the next request picks one of those sockets.
 */
const settle = () => sleep(50);

function checkpointOf(overrides: Partial<FileCheckpoint> = {}): FileCheckpoint {
  return {
    id: createId(),
    kind: 'manual',
    name: 'A checkpoint',
    version: null,
    createdAt: Date.now() - 5 * MINUTE,
    changes: null,
    definition: definitionOf(),
    ...overrides,
  };
}

/**
 * An import kept 501 checkpoints (a history keeps 200), and stored and served a
 * checkpoint whose definition had a 280-character title and unknown component types; an exported
 * file was named after the app's listing row, a store behind the title its manifest holds.
 */
describe.each(ENGINES)('an import’s history follows the history’s rules (%s)', (engine) => {
  let h: AccountsHarness;
  let ada: ApiClient;

  const appsOf = async (client: ApiClient) =>
    (await client.get<{ apps: unknown[] }>('/api/apps')).body.apps.length;
  const historyOf = async (client: ApiClient, appId: string) =>
    (await client.get<CheckpointList>(`/api/apps/${appId}/checkpoints`)).body;

  beforeAll(async () => {
    h = await startAccountsServer(engine, { storeDebounceMs: 60_000, storeMaxDebounceMs: 60_000 });
    ada = await h.signup(`ada_ih_${engine}`);
  });
  afterAll(() => h.close());

  it('keeps no more checkpoints than a history holds: the newest, as a history thins', async () => {
    const now = Date.now();
    const checkpoints = Array.from({ length: 500 }, (_, i) =>
      checkpointOf({ name: `Named ${i}`, createdAt: now - (500 - i) * MINUTE }),
    );
    const many = fileWith(checkpoints, 'Many named');
    await settle();
    const imported = await importFile(ada, many);
    await settle();
    expect(imported.status).toBe(201);
    const [app] = imported.body.apps as unknown as Array<{ id: string; checkpoints: number }>;
    expect(app!.checkpoints).toBe(HISTORY_LIMITS.checkpointsPerApp);
    expect(imported.body.report.notes.join(' ')).toMatch(
      /keeps 199 of the file’s 500 checkpoints.*at most 200 checkpoints/,
    );
    const history = await historyOf(ada, app!.id);
    expect(history.usage.count).toBe(HISTORY_LIMITS.checkpointsPerApp);
    // The import's own checkpoint first, then the file's newest 199.
    expect(history.checkpoints[0]).toMatchObject({ kind: 'import' });
    expect(history.checkpoints[1]).toMatchObject({ name: 'Named 499' });
    expect(history.checkpoints.at(-1)).toMatchObject({ name: 'Named 301' });
    // Who made its things: the import, for Ada (docs/product/history.md#who-changed-what).
    const made = (await ada.get<AppChangeList>(`/api/apps/${app!.id}/changes`)).body;
    expect(made.changes.length).toBeGreaterThan(2);
    expect(
      made.changes.every((c) => c.kind === 'import' && c.paths.join() === 'added' && c.author),
    ).toBe(true);
    expect(made.changes.map((c) => c.entity)).toEqual(expect.arrayContaining(['app', 'screen']));

    // Automatic ones thin out as they age, as in any history: one of each day past the last week.
    const auto = Array.from({ length: 300 }, (_, i) =>
      checkpointOf({
        kind: 'auto',
        name: null,
        createdAt: now - 30 * 24 * 60 * MINUTE + i * 2 * 60 * MINUTE,
      }),
    );
    const aging = fileWith(auto, 'Many automatic');
    await settle();
    const thinned = await importFile(ada, aging);
    await settle();
    expect(thinned.status).toBe(201);
    const kept = (thinned.body.apps[0] as unknown as { checkpoints: number }).checkpoints;
    expect(kept).toBeLessThan(60);
    expect(kept).toBeGreaterThan(20);
  });

  it('refuses a file whose checkpoint breaks a rule a checkpoint made here follows, making nothing', async () => {
    const before = await appsOf(ada);
    const definition = definitionOf();
    const withUnknown = {
      ...definition,
      screens: definition.screens.map((screen, i) =>
        i === 0
          ? {
              ...screen,
              components: [
                ...screen.components,
                { id: createId(), type: 'hologram', props: { beam: 'on' } },
              ],
            }
          : screen,
      ),
    } as unknown as AppDefinition;
    const cases: Array<[FileCheckpoint, RegExp]> = [
      [
        checkpointOf({ definition: definitionOf({ title: 'T'.repeat(280) }) }),
        /of the app “Bad history” is not an app this server can read: The app’s title: Keep the title to 60 characters/,
      ],
      [
        checkpointOf({ definition: withUnknown }),
        /not an app this server can read: Component \d+ \(hologram\) of the screen “[^”]+”, its type: /,
      ],
      [
        checkpointOf({ name: 'N'.repeat(HISTORY_LIMITS.nameLength + 1) }),
        /name longer than 80 characters/,
      ],
    ];
    for (const [bad, message] of cases) {
      const refused = await importFile(ada, fileWith([checkpointOf(), bad], 'Bad history'));
      expect([refused.status, errorCode(refused)]).toEqual([400, 'validation_failed']);
      expect(refused.body.error?.message).toMatch(message);
      expect(refused.body.error?.message).toMatch(/Export the app again/);
    }
    expect(await appsOf(ada)).toBe(before);
  });

  it('keeps a file’s checkpoint ids though another app here holds them, and says nothing of it', async () => {
    const other = await createApp(h, ada, definitionOf({ title: 'Holder' }));
    const held = createId();
    expect(
      (
        await ada.post(`/api/apps/${other}/checkpoints`, {
          id: held,
          name: 'Held',
          definition: definitionOf(),
        })
      ).status,
    ).toBe(201);
    const imported = await importFile(
      ada,
      fileWith([checkpointOf({ id: held, name: 'From the file' })], 'Same ids'),
    );
    expect(imported.status).toBe(201);
    expect(imported.body.report.remapped).toEqual({ apps: {}, images: {}, checkpoints: 0 });
    const appId = imported.body.apps[0]!.id;
    const history = await historyOf(ada, appId);
    expect(history.checkpoints.find((c) => c.id === held)).toMatchObject({
      name: 'From the file',
    });
    expect((await historyOf(ada, other)).checkpoints.find((c) => c.id === held)).toMatchObject({
      name: 'Held',
    });
  });

  it('names an exported file after the title its manifest holds, even before the listing is stored', async () => {
    const id = await createApp(h, ada, definitionOf({ title: 'Old title' }));
    // The store that follows createApp's last socket closing reads the document when it runs: let
    // it finish (the document unloads after it), or it would store the title set below.
    await vi.waitFor(() =>
      expect(h.pipit.server.hocuspocus.documents.has(`app/${id}`)).toBe(false),
    );
    const side = connectProvider({ url: h.pipit.url, name: `app/${id}`, cookie: ada.cookie });
    try {
      expect(await side.ready).toBe(true);
      setMeta(side.doc, { title: 'New title' });
      await acknowledged(side.provider);
      // The listing row follows on the next (debounced) store: not yet.
      expect((await h.pipit.server.storage.apps.get(id))?.title).toBe('Old title');
      const exported = await download(ada, `/api/apps/${id}/export`);
      expect(exported.status).toBe(200);
      expect(readPipitFile(exported.bytes).manifest.apps[0]!.title).toBe('New title');
      expect(exported.headers.get('content-disposition')).toMatch(
        /^attachment; filename="New title\.pipit"/,
      );
    } finally {
      side.destroy();
    }
  });
});

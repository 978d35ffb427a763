import { afterEach, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { busyRetryDelay, createId } from '@pipit/protocol';
import type { DocumentAccess } from '../../src/collab/access';
import { grantEveryone } from '../support/access';
import { connectProvider, type TestProvider } from '../support/provider';
import { type RunningPipit, startPipit } from '../support/start-server';
import { sleep } from '../support/timing';

/*
 * A burst of connections, as after a restart or when a crowd opens a popular app: the server opens
 * only so many at once (`openingAtOnce`, resource-limits.ts) and tells the rest it is busy — a
 * socket with 503, a document with `server_busy` — and each client asks again at its own moment
 * (@pipit/protocol sync-retry.ts, the schedule the app's documents use), until every one syncs.
 */

const OPENING_AT_ONCE = 6;
const CLIENTS = 60;
/** A session read and an access check as slow as a database in a storm: openings overlap. */
const READ_MS = 15;

/** The test policy, each read taking READ_MS, counting how many run at once. */
function slowAccess() {
  const inner = grantEveryone('editor');
  const reads = { now: 0, most: 0 };
  const timed =
    <A extends unknown[], R>(read: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      reads.now += 1;
      reads.most = Math.max(reads.most, reads.now);
      try {
        await sleep(READ_MS);
        return await read(...args);
      } finally {
        reads.now -= 1;
      }
    };
  const access: DocumentAccess = {
    identify: timed((request) => inner.identify(request)),
    grantFor: timed((asked) => inner.grantFor(asked)),
  };
  return { access, reads };
}

interface Client {
  name: string;
  doc: Y.Doc;
  connection: TestProvider | null;
  busyInRow: number;
  synced: boolean;
}

describe('a burst of connections', () => {
  let pipit: RunningPipit | undefined;
  const clients: Client[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) client.connection?.destroy();
    await pipit?.close();
    pipit = undefined;
  });

  it('is shed with server_busy, in turns the server can take, and every client then syncs', async () => {
    const { access, reads } = slowAccess();
    pipit = await startPipit({ access, resourceLimits: { openingAtOnce: OPENING_AT_ONCE } });
    const url = pipit.url;
    const refusals = { socket: 0, document: 0 };

    /** Connects (again), as the app's document does after a busy refusal: a new provider. */
    const connect = (client: Client) => {
      const connection = connectProvider({
        url,
        name: client.name,
        doc: client.doc,
        reconnect: true,
      });
      client.connection = connection;
      connection.socket.on('close', ({ event }: { event: { code: number } }) => {
        // A socket refused before it opened: the provider's own retries (spread) take it again.
        if (event.code !== 1000) refusals.socket += 1;
      });
      connection.provider.on('authenticationFailed', ({ reason }: { reason: string }) => {
        expect(reason).toBe('server_busy');
        refusals.document += 1;
        client.busyInRow += 1;
        connection.destroy();
        setTimeout(() => connect(client), busyRetryDelay(client.busyInRow));
      });
      connection.provider.on('synced', () => {
        client.synced = true;
      });
    };

    // Each client made an edit on its device before it could reach the server.
    for (let i = 0; i < CLIENTS; i++) {
      const doc = new Y.Doc();
      doc.getArray<string>('entries').push([`edit-${i}`]);
      clients.push({
        name: `app/${createId()}`,
        doc,
        connection: null,
        busyInRow: 0,
        synced: false,
      });
    }
    const started = Date.now();
    clients.forEach(connect);

    const deadline = started + 45_000;
    while (clients.some((c) => !c.synced || c.connection?.provider.hasUnsyncedChanges)) {
      if (Date.now() > deadline) break;
      await sleep(50);
    }
    const tookMs = Date.now() - started;
    const busiest = Math.max(...clients.map((c) => c.busyInRow));
    console.log(
      `[burst] ${CLIENTS} clients, ${OPENING_AT_ONCE} openings at once: all synced in ${tookMs} ms; ` +
        `${refusals.socket} sockets and ${refusals.document} documents told busy ` +
        `(at most ${busiest} in a row); at most ${reads.most} reads at once`,
    );

    expect(clients.filter((c) => !c.synced).map((c) => c.name)).toEqual([]);
    // The burst was shed, not queued: more came than the server opens at once…
    expect(refusals.socket + refusals.document).toBeGreaterThan(0);
    expect(refusals.document).toBeGreaterThan(0);
    // The operator sees it in /metrics: each document told busy was counted there.
    const shed = (
      await pipit.server.metrics.registry.getSingleMetric('pipit_sync_openings_shed_total')?.get()
    )?.values;
    const shedDocuments = shed?.find((v) => v.labels.what === 'document')?.value ?? 0;
    expect(shedDocuments).toBeGreaterThanOrEqual(refusals.document);
    expect(shed?.find((v) => v.labels.what === 'socket')).toBeDefined();
    // …and it never read more sessions and grants at once than it takes.
    expect(reads.most).toBeLessThanOrEqual(OPENING_AT_ONCE);
    // Every client's edit reached the server and was stored.
    for (const [i, client] of clients.entries()) {
      await expect
        .poll(async () => {
          const { snapshot, log } = await pipit!.server.storage.documents.loadWithLog(client.name);
          const stored = new Y.Doc();
          if (snapshot) Y.applyUpdate(stored, snapshot);
          for (const { update } of log) Y.applyUpdate(stored, update);
          return stored.getArray<string>('entries').toArray();
        })
        .toEqual([`edit-${i}`]);
    }
  }, 60_000);
});

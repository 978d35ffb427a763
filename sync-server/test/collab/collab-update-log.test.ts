import type { beforeHandleMessagePayload, Connection } from '@hocuspocus/server';
import * as encoding from 'lib0/encoding';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createId } from '@pipit/protocol';
import { DocumentLedger } from '../../src/collab/document-ledger';
import { createUpdateLogExtension, UpdateLog } from '../../src/collab/update-log';
import { createLogger } from '../../src/logger';
import { grantEveryone } from '../support/access';
import { acknowledged, connectProvider, type TestProvider } from '../support/provider';
import { type RunningPipit, startPipit } from '../support/start-server';
import { sleep } from '../support/timing';

/** An acknowledgement as Hocuspocus sends it: the name, SyncStatus (8), applied. */
function acknowledgement(name: string): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarString(encoder, name);
  encoding.writeVarUint(encoder, 8);
  encoding.writeVarInt(encoder, 1);
  return encoding.toUint8Array(encoder);
}

describe('the update log step (docs/decisions/0001-durable-log-before-ack.md)', () => {
  let pipit: RunningPipit | undefined;
  const providers: TestProvider[] = [];
  afterEach(async () => {
    providers.splice(0).forEach((p) => p.destroy());
    await pipit?.close();
    pipit = undefined;
  });

  it('sends an edit on to the others at once, and acknowledges it only once it is in the log', async () => {
    pipit = await startPipit({ access: grantEveryone('editor') });
    const name = `app/${createId()}`;
    const [writer, reader] = [name, name].map((n) => {
      const p = connectProvider({ url: pipit!.url, name: n });
      providers.push(p);
      return p;
    }) as [TestProvider, TestProvider];
    expect(await writer.ready).toBe(true);
    expect(await reader.ready).toBe(true);
    await acknowledged(writer.provider);

    // The database holds every log write back until released.
    let release!: () => void;
    const stalled = new Promise<void>((resolve) => (release = resolve));
    const documents = pipit.server.storage.documents;
    const append = documents.append.bind(documents);
    documents.append = async (entries) => {
      await stalled;
      return append(entries);
    };
    writer.doc.getArray<string>('items').push(['fast']);
    await vi.waitFor(() => expect(reader.doc.getArray('items').toArray()).toEqual(['fast']));
    // A fixed wait on purpose: an acknowledgement sent before the write would arrive within it.
    await sleep(300);
    expect(writer.provider.hasUnsyncedChanges).toBe(true);
    release();
    await acknowledged(writer.provider);
    const { log } = await documents.loadWithLog(name);
    expect(log.length).toBeGreaterThan(0);
  });

  it('closes the connection instead of acknowledging an update the log never took', async () => {
    const ledger = new DocumentLedger();
    const log = new UpdateLog(
      { append: () => Promise.reject(new Error('storage is down')) },
      { retryDeadlineMs: 50 },
    );
    const extension = createUpdateLogExtension({
      log,
      ledger,
      logger: createLogger('silent'),
      waitingBytesBudget: 1024 * 1024,
    });
    const name = `app/${createId()}`;
    const sent: Uint8Array[] = [];
    const connection = {
      send: (message: Uint8Array) => sent.push(message),
      close: vi.fn(),
    } as unknown as Connection;
    ledger.reserve(name, connection, {
      update: new Uint8Array([0, 0]),
      growth: { bytes: 2, items: 0 },
    });
    await extension.beforeHandleMessage!({
      documentName: name,
      connection,
    } as beforeHandleMessagePayload);
    // Hocuspocus applies the update and acknowledges it: held back…
    connection.send(acknowledgement(name));
    expect(sent).toEqual([]);
    // …and never sent: the write failed for good, the connection is told so instead.
    await vi.waitFor(() =>
      expect(connection.close).toHaveBeenCalledWith({ code: 4503, reason: 'storage_unavailable' }),
    );
    expect(sent).toEqual([]);
  });
});

// First: IndexedDB must exist before Dexie loads.
import { fakeBrowser } from '../../test-support/fake-browser';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Files from './record-files';

/*
 * Photos and files on this device: kept by their SHA-256 at once (and across a reload: a fresh
 * module over the same IndexedDB), sent by the queue when online, again the moment the device
 * comes back online, never again once sent or refused. fake-indexeddb; the server is a scripted
 * `send`.
 */

let browser: ReturnType<typeof fakeBrowser>;
let files: typeof Files;

async function loadPage(): Promise<typeof Files> {
  vi.resetModules();
  return import('./record-files');
}

const OWNER = 'owner-1';
/** The bytes `abc`, whose SHA-256 is FIPS 180-2's first example. */
const bytes = new TextEncoder().encode('abc');
const ABC_SHA256 = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';

async function keep(data: Uint8Array<ArrayBuffer> = bytes) {
  const blob = new Blob([data], { type: 'image/png' });
  const hash = await files.sha256Hex(blob);
  await files.keepOnDevice({ hash, blob, type: 'image/png', name: 'fern.png', size: blob.size });
  await files.queueUpload({
    owner: OWNER,
    path: `/api/apps/app1/files/${hash}`,
    hash,
    kind: 'image',
  });
  return hash;
}

const pending = async () => {
  const { localDb } = await import('../core/local-db');
  return localDb().pendingUploads.toArray();
};

beforeEach(async () => {
  browser = fakeBrowser({ online: false });
  files = await loadPage();
  const { localDb } = await import('../core/local-db');
  await localDb().pendingUploads.clear();
  await localDb().deviceFiles.clear();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('photos and files kept on this device', () => {
  it('names the bytes by their SHA-256 and keeps them across a reload', async () => {
    const hash = await keep();
    expect(hash).toBe(ABC_SHA256);
    files = await loadPage();
    const url = await files.deviceFileUrl(hash, 'thumbnail');
    expect(url).toMatch(/^blob:/);
    // Asked again, the same address (one object URL per file and page).
    expect(await files.deviceFileUrl(hash, 'thumbnail')).toBe(url);
    expect(await files.deviceFileUrl('f'.repeat(64), 'original')).toBeNull();
  });

  it('reads the files asked for in one moment together, each answered as asked', async () => {
    const first = await keep();
    const second = await keep(new TextEncoder().encode('abcd'));
    const { localDb } = await import('../core/local-db');
    const bulkGet = vi.spyOn(localDb().deviceFiles, 'bulkGet');
    const urls = await Promise.all([
      files.deviceFileUrl(first, 'original'),
      files.deviceFileUrl('f'.repeat(64), 'original'),
      files.deviceFileUrl(second, 'thumbnail'),
      files.deviceFileUrl(first, 'thumbnail'),
    ]);
    expect(bulkGet).toHaveBeenCalledTimes(1);
    expect(urls[0]).toMatch(/^blob:/);
    expect(urls[1]).toBeNull();
    expect(urls[2]).toMatch(/^blob:/);
    expect(new Set(urls).size).toBe(4);
  });

  it('sends what waits, tries again when the device comes back online, and forgets it once sent', async () => {
    const hash = await keep();
    const send = vi.fn<Parameters<typeof Files.startUploads>[0]['send']>();
    send.mockResolvedValueOnce({ status: 'later' }).mockResolvedValue({ status: 'done' });
    const uploads = files.startUploads({ owner: OWNER, send });
    await vi.waitFor(() => expect(send).toHaveBeenCalledTimes(1));
    expect(send.mock.calls[0]![0]).toMatchObject({
      hash,
      kind: 'image',
      path: `/api/apps/app1/files/${hash}`,
    });
    expect(new Uint8Array(await send.mock.calls[0]![1].arrayBuffer())).toEqual(bytes);
    expect(await pending()).toHaveLength(1);

    browser.navigator.onLine = true;
    window.dispatchEvent(new Event('online'));
    await vi.waitFor(() => expect(send).toHaveBeenCalledTimes(2));
    await vi.waitFor(async () => expect(await pending()).toEqual([]));
    uploads.stop();
  });

  it('keeps a refused file on the device with why, and does not send it again', async () => {
    const refusedHash = await keep();
    const otherHash = await keep(new TextEncoder().encode('another photo'));
    const send = vi.fn<Parameters<typeof Files.startUploads>[0]['send']>(async (upload) =>
      upload.hash === refusedHash
        ? { status: 'refused', problem: 'That file isn’t an image we can read.' }
        : { status: 'done' },
    );
    const uploads = files.startUploads({ owner: OWNER, send });
    await vi.waitFor(async () =>
      expect(await pending()).toEqual([
        expect.objectContaining({
          hash: refusedHash,
          problem: 'That file isn’t an image we can read.',
        }),
      ]),
    );
    expect(send.mock.calls.map(([u]) => u.hash)).toEqual([refusedHash, otherHash]);
    uploads.kick();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(send).toHaveBeenCalledTimes(2);
    expect(await files.deviceFileUrl(refusedHash, 'original')).toMatch(/^blob:/);
    // What the person is told about, until they dismiss it.
    const seen: string[][] = [];
    const stop = files.watchRefusedUploads(OWNER, (refused) =>
      seen.push(refused.map((u) => u.problem ?? '')),
    );
    await vi.waitFor(() => expect(seen.at(-1)).toEqual(['That file isn’t an image we can read.']));
    await files.dismissRefusedUpload(`${OWNER}:/api/apps/app1/files/${refusedHash}`);
    await vi.waitFor(() => expect(seen.at(-1)).toEqual([]));
    stop();
    uploads.stop();
  });

  it('sends nobody else’s files', async () => {
    await keep();
    const send = vi.fn<Parameters<typeof Files.startUploads>[0]['send']>();
    const uploads = files.startUploads({ owner: 'someone-else', send });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(send).not.toHaveBeenCalled();
    uploads.stop();
  });
});

// First: IndexedDB must exist before Dexie loads.
import { fakeBrowser } from '../../test-support/fake-browser';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { localDb, type LocalApp } from './local-db';

/*
 * A failure is never cached: one IndexedDB open that fails (Chrome's "Internal error opening
 * backing store", for longer than Dexie's own three retries of an UnknownError) must not leave
 * this device's database broken until the page reloads (found by a review).
 */

fakeBrowser({ online: true });

const idb = globalThis.indexedDB as IDBFactory & { open: IDBFactory['open'] };
const realOpen = idb.open.bind(idb);

/** The next `count` opens of IndexedDB throw, as a transient backing-store failure does. */
function failNextOpens(count: number) {
  // Dexie says so on each of its retries.
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  let left = count;
  idb.open = ((name: string, version?: number) => {
    if (left > 0) {
      left -= 1;
      throw new DOMException(
        'Internal error opening backing store for indexedDB.open.',
        'UnknownError',
      );
    }
    return realOpen(name, version);
  }) as IDBFactory['open'];
}

afterEach(() => {
  idb.open = realOpen as IDBFactory['open'];
  vi.restoreAllMocks();
});

const row = (id: string): LocalApp => ({
  key: `acc:${id}`,
  accountId: 'acc',
  id,
  title: id,
  description: '',
  icon: null,
  role: 'owner',
  archived: false,
  published: false,
  createdAt: 1,
  updatedAt: 1,
  registered: false,
  pending: 1,
});

describe('localDb after a failed open', () => {
  it('opens again on the next call once IndexedDB works again', async () => {
    // Four failures: Dexie's three immediate retries, and one more.
    failNextOpens(4);
    await expect(localDb().apps.count()).rejects.toThrow();
    // IndexedDB works again: the next use opens it, and keeps working.
    await expect(localDb().apps.count()).resolves.toBe(0);
    await localDb().apps.put(row('one'));
    expect((await localDb().apps.get('acc:one'))?.title).toBe('one');
    // A database that opened is kept: no new open per call.
    expect(localDb()).toBe(localDb());
  });

  it('recovers from a second failure too, with what the device held', async () => {
    await localDb().apps.put(row('two'));
    // The connection goes (as a closed instance never opens by itself), and opening fails again.
    localDb().close();
    failNextOpens(4);
    await expect(localDb().apps.count()).rejects.toThrow();
    expect((await localDb().apps.toArray()).map((app) => app.id).sort()).toEqual(['one', 'two']);
  });
});

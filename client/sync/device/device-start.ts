import { jsonDataBlock } from '@pipit/protocol';
import { within } from '../core/within';
import { anonymousDataName, deviceKeeps } from '../core/document-names';
import { keptFor, keptResponse } from './published-cache';

/**
 * What an installed app's start reads from this device, read by the service worker as it serves
 * the page and written into it (client/sw.ts): the app's copy (published-cache.ts) and whether
 * this device keeps an anonymous visitor's data for it (document-names.ts). The worker reads both
 * on its own thread while the page's is busy starting, so the page's first render waits on no
 * storage read of its own (about 15 ms of an offline start, at full speed and at a phone's:
 * docs/performance.md).
 *
 * Written as the server writes the answers a page carries, at the end of the page's body
 * (@pipit/protocol page-data.ts, `jsonDataBlock` and `withDataBlock`): a JSON data block, never
 * run, with no `<` in it, so the app's content cannot end the element. Its own
 * element: it says what this device keeps, which no answer of the API says. The page checks what
 * it reads as it checks its own reads (the app's schema, and whom a private copy is for), and
 * reads for itself whatever is not there (device-start-read.ts, apart so the worker loads no
 * schema).
 */

export const DEVICE_START_ELEMENT_ID = 'pipit-device-start';

/** Larger copies are left for the page to read (a navigation is not held up for them). */
const MAX_WRITTEN_CHARS = 1_000_000;
/** A navigation never waits longer than this on storage: the page then reads for itself. */
const MAX_WAIT_MS = 200;

/** What the service worker found on this device for an installed app's start. */
export interface DeviceRead {
  /** Whether this device keeps an anonymous visitor's data for the app (document-names.ts). */
  deviceData: boolean;
  /** The app's copy as kept (the response's body), or null if there is none. */
  body: string | null;
  /** Who the copy was fetched for (published-cache.ts `keptFor`). */
  keptFor: string | null;
}

/**
 * The element to write into the page. A copy too large to write is left out (`body` absent: the
 * page reads it itself); no copy is `"body":null`.
 */
export function deviceStartElement({ deviceData, body, keptFor }: DeviceRead): string {
  const written =
    (body?.length ?? 0) <= MAX_WRITTEN_CHARS
      ? { deviceData, keptFor, body }
      : { deviceData, keptFor };
  return jsonDataBlock(DEVICE_START_ELEMENT_ID, written);
}

/**
 * The service worker's part: reads this device for the app's start, and gives the element to
 * write into its page, or '' if the reads fail or take too long.
 */
export async function readDeviceStartElement(appId: string): Promise<string> {
  const read = async (): Promise<DeviceRead> => {
    const [response, deviceData] = await Promise.all([
      keptResponse(appId),
      deviceKeeps(anonymousDataName(appId)),
    ]);
    const kept = response?.ok ? response : undefined;
    return {
      deviceData,
      body: kept ? await kept.text() : null,
      keptFor: kept ? keptFor(kept) : null,
    };
  };
  const found = await within(
    read().catch(() => undefined),
    MAX_WAIT_MS,
  );
  return found ? deviceStartElement(found) : '';
}

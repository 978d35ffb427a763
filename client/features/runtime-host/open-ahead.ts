import { appShellTarget } from '@pipit/protocol';
import { getAccount } from '../../platform/session/session';
import { anonymousDataName, openDeviceDocumentAhead } from '../../sync/device-documents';
import { openAccountDocumentAhead } from '../../sync/read-ahead';
import { deviceCopyWithin, type PwaLoad, readDeviceCopyAhead } from './load-pwa-app';

/**
 * How long the installed app waits for this device's copy before it shows a loading screen
 * instead: read in time, its first render is the app itself.
 */
const FIRST_RENDER_WAIT_MS = 250;

/**
 * The installed app's start (client/app-main.tsx, before React renders): what its first screen
 * waits for on this device — the app's copy (Cache Storage) and the visitor's data (IndexedDB) —
 * starts reading at once and in parallel, rather than one after the other as the components that
 * need them mount, and the first render waits a moment for the app's copy (docs/performance.md).
 * Resolves with the app as loaded from this device, or null: it loads as the page renders.
 */
export function openAhead(pathname: string): Promise<PwaLoad | null> {
  const target = appShellTarget(pathname);
  if (target?.kind !== 'app') return Promise.resolve(null);
  const { appId } = target;
  readDeviceCopyAhead(appId);
  openVisitorDataAhead(appId);
  return deviceCopyWithin(appId, FIRST_RENDER_WAIT_MS).catch(() => null);
}

/** Whose data: the account last seen on this device (the server is asked later), or anonymous. */
function openVisitorDataAhead(appId: string) {
  const accountId = getAccount()?.id;
  if (!accountId) openDeviceDocumentAhead(anonymousDataName(appId));
  else openAccountDocumentAhead({ kind: 'data', appId, userId: accountId }, accountId);
}

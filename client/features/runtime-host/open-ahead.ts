import { appShellTarget } from '@pipit/protocol';
import { currentViewer, getAccount, loadSession } from '../../platform/session/session';
import { within } from '../../sync/core/within';
import { DEVICE_START_ELEMENT_ID } from '../../sync/device/device-start';
import { type DeviceStart, readDeviceStart } from '../../sync/device/device-start-read';
import { openVisitorDataAhead } from '../../sync/visitor-data/visitor-data';
import {
  deviceCopyWithin,
  preloadAppParts,
  type PwaLoad,
  readDeviceCopyAhead,
} from './load-pwa-app';

/**
 * How long the installed app waits for this device's copy and the visitor's data before it shows
 * a loading screen instead: read in time, its first render is the app itself.
 */
const FIRST_RENDER_WAIT_MS = 250;

/**
 * The installed app's start (client/app-main.tsx, before React renders): what its first screen
 * waits for on this device — the app's copy (Cache Storage) and the visitor's data (IndexedDB) —
 * starts reading at once and in parallel, rather than one after the other as the components that
 * need them mount, and the first render waits a moment for both (docs/performance.md).
 * Resolves with the app as loaded from this device, or null: it loads as the page renders.
 */
export async function openAhead(pathname: string): Promise<PwaLoad | null> {
  const target = appShellTarget(pathname);
  if (target?.kind !== 'app') return null;
  const { appId } = target;
  const started = performance.now();
  // Who is signed in is asked at once too: with nobody seen on this device, the visitor's data
  // opens only when the server answers (useSessionSettled), and this wait usually covers it.
  const session = getAccount() ? null : loadSession();
  // What the service worker read for this page already (device-start.ts) is not read again.
  const start = takeDeviceStart(appId);
  readDeviceCopyAhead(appId, start?.app);
  // Whose data: the account last seen on this device (the server is asked later; not waited for),
  // or anonymous — opened only if this device keeps some (a first visit loads no Yjs for an empty
  // copy).
  const data = openVisitorDataAhead(appId, getAccount()?.id ?? null, start?.deviceData).catch(
    (error: unknown) => console.warn('Could not read your data from this device:', error),
  );
  const app = await deviceCopyWithin(appId, FIRST_RENDER_WAIT_MS).catch(() => null);
  // The visitor's data (and who they are, and the app's parts that are chunks of their own),
  // within what is left of the same wait.
  const parts = app?.kind === 'ready' ? preloadAppParts(app.app) : null;
  await within(
    Promise.all([data, session, parts]),
    FIRST_RENDER_WAIT_MS - (performance.now() - started),
  );
  return app;
}

/** What the service worker wrote into this page (device-start.ts), taken once: the element goes. */
function takeDeviceStart(appId: string): DeviceStart | null {
  const element = document.getElementById(DEVICE_START_ELEMENT_ID);
  element?.remove();
  return readDeviceStart(element?.textContent ?? null, appId, currentViewer());
}

import {
  cachedPublishedApp,
  forgetPublishedApp,
  storePublishedApp,
} from '../../sync/device/published-cache';
import type { PublishedApp } from '@pipit/protocol';
import { currentViewer } from '../../platform/session/session';
import { requestPublishedApp } from '../../platform/published-app';
import { ApiRequestError, OfflineError } from '../../platform/api/request';
import { within } from '../../sync/core/within';
import { isSharedCollection } from '@pipit/app-definition';
import { hasFileFields, preloadRuntimeParts } from '@pipit/runtime';
import { readPublishedDefinition } from '../../platform/published-definition';
import { preloadRecordFiles } from './record-files-host';
import { preloadSpacesPart } from './spaces-slot';

/** What `/apps/{id}/pwa` can show. */
export type PwaLoad =
  /** `fromDevice`: the copy kept on this device (the server is asked next, in the background). */
  | { kind: 'ready'; app: PublishedApp; fromDevice: boolean }
  /** Never opened on this device, and the server cannot be reached. */
  | { kind: 'offline' }
  /** Private, unpublished, or never published: not found for this person. */
  | { kind: 'not-found' }
  /** Deleted forever by its creator: it never opens again. */
  | { kind: 'deleted' };

/** Why the server has no app to give: not found (for this person), or deleted forever. */
export type AppGone = Extract<PwaLoad, { kind: 'not-found' | 'deleted' }>;

/**
 * Under the service worker, its cache is the device's copy and it keeps it (stores each answer,
 * drops a gone app's); before it controls the page — a first visit — the page does.
 */
const underServiceWorker = () => Boolean(navigator.serviceWorker?.controller);

/**
 * Asks the server for the app (requestPublishedApp). A copy answered by the service worker's cache
 * is marked as such, so a stale answer never replaces the newer one showing.
 */
export async function fetchPublishedApp(
  appId: string,
  signal?: AbortSignal,
): Promise<{ kind: 'found'; app: PublishedApp; isLastSeenCopy: boolean } | AppGone> {
  try {
    const { data, isCachedCopy } = await requestPublishedApp(appId, signal);
    if (!isCachedCopy && !underServiceWorker()) await storePublishedApp(data, currentViewer());
    return { kind: 'found', app: data, isLastSeenCopy: isCachedCopy };
  } catch (error) {
    if (
      error instanceof ApiRequestError &&
      (error.code === 'not_found' || error.code === 'app_deleted')
    ) {
      if (!underServiceWorker()) await forgetPublishedApp(appId);
      return { kind: error.code === 'app_deleted' ? 'deleted' : 'not-found' };
    }
    throw error;
  }
}

/** This device's copies being read ahead of the first loadPwaApp (readDeviceCopyAhead). */
const readingAhead = new Map<string, Promise<PublishedApp | null>>();

/**
 * Starts reading this device's copy of the app before the page renders (open-ahead.ts), unless
 * the service worker already read it into the page (`known`, device-start.ts); the first
 * loadPwaApp of it, or deviceCopyWithin, takes the answer; later ones (a retry) read again.
 */
export function readDeviceCopyAhead(appId: string, known?: PublishedApp | null): void {
  readingAhead.set(
    appId,
    known === undefined ? cachedPublishedApp(appId, currentViewer()) : Promise.resolve(known),
  );
}

/**
 * The copy read ahead, if it is on this device and read within `ms`: the installed app's first
 * render is then the app itself, not a loading screen. Otherwise null, and loadPwaApp goes on
 * from the read under way.
 */
export async function deviceCopyWithin(appId: string, ms: number): Promise<PwaLoad | null> {
  const reading = readingAhead.get(appId);
  if (!reading) return null;
  const app = await within(reading, ms);
  if (!app) return null;
  readingAhead.delete(appId);
  return { kind: 'ready', app, fromDevice: true };
}

/**
 * Loads the parts of the app that are chunks of their own (its charts, views, photo picker,
 * formulas, relations: `preloadRuntimeParts`; its spaces, photos and files) before its first
 * render, so that render draws them at once rather than placeholders. Never rejects: a part that
 * could not load is tried again where it is drawn.
 */
export async function preloadAppParts(app: PublishedApp): Promise<void> {
  const definition = readPublishedDefinition(app);
  if (!definition) return;
  await Promise.all([
    preloadRuntimeParts(definition),
    definition.collections.some(isSharedCollection) ? preloadSpacesPart() : null,
    hasFileFields(definition) ? preloadRecordFiles() : null,
  ]);
}

/** The load, once the parts of the app it is ready to run are loaded. */
async function withParts(load: PwaLoad): Promise<PwaLoad> {
  if (load.kind === 'ready') await preloadAppParts(load.app);
  return load;
}

/**
 * What the installed app opens with: this device's copy when there is one (an installed app opens at once and
 * offline; the server is asked afterwards), else the server's answer.
 */
export async function loadPwaApp(appId: string, signal?: AbortSignal): Promise<PwaLoad> {
  return withParts(await loadPwaAppAlone(appId, signal));
}

async function loadPwaAppAlone(appId: string, signal?: AbortSignal): Promise<PwaLoad> {
  const ahead = readingAhead.get(appId);
  readingAhead.delete(appId);
  const cached = await (ahead ?? cachedPublishedApp(appId, currentViewer()));
  if (cached) return { kind: 'ready', app: cached, fromDevice: true };
  try {
    const fetched = await fetchPublishedApp(appId, signal);
    if (fetched.kind !== 'found') return fetched;
    return { kind: 'ready', app: fetched.app, fromDevice: fetched.isLastSeenCopy };
  } catch (error) {
    if (error instanceof OfflineError) return { kind: 'offline' };
    // The server answered with an error it could not explain: InstalledApp's error screen says so.
    throw error;
  }
}

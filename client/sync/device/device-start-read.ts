import { type PublishedApp, readPublishedApp } from '@pipit/protocol';
import { copyIsFor, type Viewer } from './published-cache';

/**
 * What the service worker writes into an installed app's page (device-start.ts), or null. Read by
 * hand, as the app's copy is (@pipit/protocol answer-readers.ts): no zod on the first visit.
 */
function readWritten(
  value: unknown,
): { deviceData: boolean; keptFor: string | null; body?: string | null } | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const { deviceData, keptFor, body } = value as Record<string, unknown>;
  const isText = (text: unknown) => text === null || typeof text === 'string';
  if (typeof deviceData !== 'boolean' || !isText(keptFor)) return null;
  if (body !== undefined && !isText(body)) return null;
  return { deviceData, keptFor: keptFor as string | null, body: body as string | null | undefined };
}

export interface DeviceStart {
  /** Whether this device keeps an anonymous visitor's data for the app. */
  deviceData: boolean;
  /**
   * The app's copy on this device, if this viewer may see it; null if there is none (or none
   * that reads); undefined if it was not written: the page reads it itself.
   */
  app?: PublishedApp | null;
}

/**
 * The page's part: what the service worker wrote into this page for the app (the element's text),
 * checked; null if nothing was written, or it does not read.
 */
export function readDeviceStart(
  text: string | null,
  appId: string,
  viewer: Viewer,
): DeviceStart | null {
  const written = readWritten(parseJson(text));
  if (!written) return null;
  const { deviceData, keptFor, body } = written;
  if (body === undefined) return { deviceData };
  const app = readPublishedApp(parseJson(body));
  const readable = app !== null && app.id === appId && copyIsFor(app, keptFor, viewer);
  return { deviceData, app: readable ? app : null };
}

function parseJson(text: string | null): unknown {
  try {
    return text === null ? null : JSON.parse(text);
  } catch {
    return null;
  }
}

import { type PublishedApp, publishedAppSchema } from '@pipit/protocol';
import * as zm from 'zod/mini';
import { copyIsFor, type Viewer } from './published-cache';

/** What the service worker writes into an installed app's page (device-start.ts). */
const writtenSchema = zm.object({
  deviceData: zm.boolean(),
  keptFor: zm.nullable(zm.string()),
  body: zm.optional(zm.nullable(zm.string())),
});

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
  const written = writtenSchema.safeParse(parseJson(text));
  if (!written.success) return null;
  const { deviceData, keptFor, body } = written.data;
  if (body === undefined) return { deviceData };
  const app = publishedAppSchema.safeParse(parseJson(body));
  const readable = app.success && app.data.id === appId && copyIsFor(app.data, keptFor, viewer);
  return { deviceData, app: readable ? app.data : null };
}

function parseJson(text: string | null): unknown {
  try {
    return text === null ? null : JSON.parse(text);
  } catch {
    return null;
  }
}

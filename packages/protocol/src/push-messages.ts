import { ID_PATTERN } from './ids';

/*
 * What a Web Push message carries to a device, and how the device reads it. The server writes it
 * (sync-server/src/push/), the push service carries it encrypted, and the service worker
 * (client/sw.ts) shows it as a notification. It is read by hand: the service worker loads no zod,
 * and whatever arrives is treated as untrusted — a message that does not fit is shown as a plain
 * "something new" notification (the browser requires every push to show one), never as its text.
 */

/** The longest title a notification shows whole on a phone's lock screen. */
export const PUSH_TITLE_MAX = 80;
/** Room for a sentence or two; the encrypted payload is limited to 4 KB in all. */
export const PUSH_BODY_MAX = 300;
export const PUSH_PATH_MAX = 512;
export const PUSH_TAG_MAX = 64;

export interface PushMessage {
  title: string;
  body: string;
  /**
   * Where tapping it goes: a path on Pipit's own origin (never a whole URL, so a message can open
   * nothing but Pipit's pages).
   */
  path: string;
  /**
   * One notification per tag on a device: a second copy of the same message (at-least-once
   * delivery) replaces the first instead of showing twice.
   */
  tag: string;
  /** The app the message is about, whose icon it shows. */
  appId?: string;
}

/** A path on this origin: starts with one slash, no scheme, no backslash, no control characters. */
export function isLocalPath(path: string): boolean {
  return (
    path.length <= PUSH_PATH_MAX &&
    path.startsWith('/') &&
    !path.startsWith('//') &&
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
    !/[\\\u0000-\u001f\u007f]/.test(path)
  );
}

const boundedText = (value: unknown, max: number): value is string =>
  typeof value === 'string' && value.trim().length > 0 && value.length <= max;

/** The message, or null when it does not fit (unknown keys are left out). */
export function readPushMessage(value: unknown): PushMessage | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const { title, body, path, tag, appId } = value as Record<string, unknown>;
  if (!boundedText(title, PUSH_TITLE_MAX)) return null;
  if (typeof body !== 'string' || body.length > PUSH_BODY_MAX) return null;
  if (typeof path !== 'string' || !isLocalPath(path)) return null;
  if (!boundedText(tag, PUSH_TAG_MAX)) return null;
  if (appId !== undefined && (typeof appId !== 'string' || !ID_PATTERN.test(appId))) return null;
  return { title, body, path, tag, ...(appId === undefined ? {} : { appId }) };
}

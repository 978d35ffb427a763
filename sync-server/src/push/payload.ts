import { createHash } from 'node:crypto';

/**
 * What a push carries to the app's service worker, as JSON. Small on purpose: a push service
 * takes 4096 bytes of body, and encryption takes its part of that. The service worker shows only
 * what fits the protocol's `PushMessage` (packages/protocol/src/push-messages.ts); anything else
 * shows as a plain notification.
 */
export interface PushPayload {
  title: string;
  body?: string;
  /** The page the notification opens: a path on Pipit's own origin. */
  path?: string;
  /** The notification's tag: a second push with the same tag replaces the first on the device. */
  tag?: string;
  appId?: string;
  [key: string]: unknown;
}

/**
 * The largest payload, in UTF-8 bytes, that fits one push: 4096 bytes of body less the aes128gcm
 * header (86: salt, record size, the sender's public key) and one record's overhead (17: the
 * delimiter and the tag). One byte more and push services answer 413.
 */
export const PUSH_PAYLOAD_MAX_BYTES = 4096 - 86 - 17;

/** RFC 8030's Topic: at most 32 characters of the base64url alphabet. */
export const PUSH_TOPIC_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * The Topic header for a notification's tag: a push service keeps only the newest undelivered
 * message of a topic, so a copy sent again replaces the first instead of arriving twice. Tags are
 * free text of any length; a hash of one always fits the header.
 */
export function topicForTag(tag: string): string {
  return createHash('sha256').update(tag, 'utf8').digest('base64url').slice(0, 32);
}

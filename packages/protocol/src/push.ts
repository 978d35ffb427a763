import { z } from 'zod';
import { ID_PATTERN } from './ids';
import { lazySchema } from './lazy-schema';

/*
 * Web Push subscriptions (docs/decisions/0012-web-push-and-scheduler.md#subscriptions): an app's
 * page subscribes with `pushManager.subscribe()` and sends what `PushSubscription.toJSON()` gives,
 * with the app's id and the device id.
 */

/** Push services' endpoints are a few hundred characters; anything far longer is not one. */
export const PUSH_ENDPOINT_MAX_LENGTH = 1024;
/** The device id a client keeps (client/sync/device/device-id.ts makes a UUID). */
export const PUSH_DEVICE_ID_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;

/** Packages declare no environment types; URL is in every browser, worker and Node. */
const { URL: UrlParser } = globalThis as unknown as {
  URL: new (text: string) => { protocol: string; username: string; password: string };
};

/** Bytes `text` (base64url, padded or not) decodes to, or -1 when it is not base64url. */
function base64urlBytes(text: string): number {
  const bare = text.replace(/={1,2}$/, '');
  if (!/^[A-Za-z0-9_-]*$/.test(bare) || bare.length % 4 === 1) return -1;
  return Math.floor((bare.length * 6) / 8);
}

const base64urlKey = (bytes: number, message: string, first?: string) =>
  z
    .string({ error: message })
    .max(200, message)
    .refine(
      (text) => base64urlBytes(text) === bytes && (first === undefined || text.startsWith(first)),
      message,
    )
    // Kept as toJSON() gives it: without padding.
    .transform((text) => text.replace(/={1,2}$/, ''));

const endpointMessage = `A push endpoint is the https address of a push service, at most ${PUSH_ENDPOINT_MAX_LENGTH} characters.`;

const deviceIdSchema = () =>
  z
    .string()
    .regex(PUSH_DEVICE_ID_PATTERN, 'A device id is 8 to 64 characters: letters, digits, - or _.');

/** What `PushSubscription.toJSON()` gives. */
const browserSubscriptionSchema = () =>
  z.object({
    endpoint: z
      .string({ error: endpointMessage })
      .max(PUSH_ENDPOINT_MAX_LENGTH, endpointMessage)
      .refine((text) => {
        try {
          const url = new UrlParser(text);
          return url.protocol === 'https:' && url.username === '' && url.password === '';
        } catch {
          return false;
        }
      }, endpointMessage),
    expirationTime: z.number().nullable().optional(),
    keys: z.object({
      // An uncompressed P-256 point: 0x04, then x and y, 65 bytes (base64url starts with B).
      p256dh: base64urlKey(
        65,
        'p256dh is the subscription’s public key: an uncompressed P-256 point, 65 bytes in base64url.',
        'B',
      ),
      auth: base64urlKey(16, 'auth is the subscription’s secret: 16 bytes in base64url.'),
    }),
  });

/** `POST /api/push/subscriptions`. */
export const pushSubscribeRequestSchema = lazySchema(() =>
  z.object({
    appId: z.string().regex(ID_PATTERN, 'Not an app id.'),
    deviceId: deviceIdSchema(),
    subscription: browserSubscriptionSchema(),
  }),
);
export type PushSubscribeRequest = z.infer<typeof pushSubscribeRequestSchema>;

/**
 * `POST /api/push/platform-subscriptions`: this device wants Pipit's own notifications (creators'
 * notifications, docs/product/reminders.md#creators-notifications).
 */
export const platformPushSubscribeRequestSchema = lazySchema(() =>
  z.object({ deviceId: deviceIdSchema(), subscription: browserSubscriptionSchema() }),
);

/** `DELETE /api/push/platform-subscriptions`. */
export const platformPushUnsubscribeRequestSchema = lazySchema(() =>
  z.object({
    endpoint: z.string().min(1, endpointMessage).max(PUSH_ENDPOINT_MAX_LENGTH, endpointMessage),
  }),
);

/**
 * When a creator gets the email digest: while no device of theirs has Pipit's notifications on
 * (`when_no_push`, the default), `always`, or `off`.
 */
export const EMAIL_DIGEST_CHOICES = ['when_no_push', 'always', 'off'] as const;
export type EmailDigestChoice = (typeof EMAIL_DIGEST_CHOICES)[number];

/** `PUT /api/account/creator-notifications`. */
export const creatorNotificationSettingsRequestSchema = lazySchema(() =>
  z.object({
    emailDigest: z.enum(EMAIL_DIGEST_CHOICES, {
      error: 'The email digest is when_no_push, always or off.',
    }),
    /**
     * The device's IANA zone, which the digest's 17:00 keeps to (the server checks it is one it
     * knows); absent: the zone told before stays.
     */
    timeZone: z.string().max(64, 'A time zone is a name like Europe/Paris.').optional(),
  }),
);

/** `GET /api/account/creator-notifications`. */
export interface CreatorNotificationSettings {
  emailDigest: EmailDigestChoice;
  /** Devices with Pipit's own notifications on (not turned off after failing). */
  devices: number;
  /** The digest goes only to a confirmed address. */
  emailVerified: boolean;
  /** The IANA zone whose 17:00 the digest keeps to ("UTC" until the person tells one). */
  digestTimeZone: string;
}

/** `DELETE /api/push/subscriptions`. */
export const pushUnsubscribeRequestSchema = lazySchema(() =>
  z.object({
    endpoint: z.string().min(1, endpointMessage).max(PUSH_ENDPOINT_MAX_LENGTH, endpointMessage),
    /** Only this app's messages stop; without it, every app's on that browser. */
    appId: z.string().regex(ID_PATTERN, 'Not an app id.').optional(),
  }),
);

/** One of a person's subscriptions as `GET /api/push/subscriptions` lists it: never its keys. */
export interface PushSubscriptionSummary {
  id: string;
  appId: string;
  deviceId: string;
  createdAt: number;
  lastSuccessAt: number | null;
  /** Set when it is no longer sent to after failing too often; subscribing again clears it. */
  disabledAt: number | null;
}

/**
 * A browser's Web Push subscription for one app on one device
 * (docs/decisions/0012-web-push-and-scheduler.md#subscriptions).
 */
export interface PushSubscriptionRecord {
  id: string;
  userId: string;
  appId: string;
  /** The device id the client already sends for presence. */
  deviceId: string;
  /** The push service's URL for this subscription; one browser subscription is one row. */
  endpoint: string;
  /** The subscription's keys, base64url without padding, as `PushSubscription.toJSON()` gives. */
  p256dh: string;
  auth: string;
  /** The application server key the browser subscribed with. */
  vapidPublicKey: string;
  createdAt: number;
  /** The last time its push service accepted a message (201). */
  lastSuccessAt: number | null;
  /** Consecutive failures other than 404/410; a success resets them. */
  failures: number;
  /** Set once `failures` reached PUSH_FAILURES_BEFORE_DISABLE; subscribing again clears it. */
  disabledAt: number | null;
}

/**
 * The app id a subscription of the Pipit platform itself carries (creators' notifications): its
 * rows live in their own table, and this value can never be an app's id (those have no dots), so
 * the sender's per-app rate limit and logs tell them apart.
 */
export const PLATFORM_PUSH_APP_ID = 'pipit.platform';

export type NewPushSubscription = Pick<
  PushSubscriptionRecord,
  | 'id'
  | 'userId'
  | 'appId'
  | 'deviceId'
  | 'endpoint'
  | 'p256dh'
  | 'auth'
  | 'vapidPublicKey'
  | 'createdAt'
>;

/**
 * Consecutive failures (429, 5xx, no answer) after which a subscription is no longer sent to: a
 * push service that keeps failing for one endpoint for this long is not coming back for it, and
 * the browser subscribing again (each time the app opens) brings the row back.
 */
export const PUSH_FAILURES_BEFORE_DISABLE = 10;

export interface PushSubscriptionStore {
  /**
   * Stores a subscription. A device subscribing again for the same person and app replaces its row
   * (its id and `createdAt` are kept, its failures and `disabledAt` cleared). One browser
   * subscription serves every app installed from that browser (they share Pipit's service
   * worker), so it has a row per app; kept for another person, every row of it moves to this one
   * (the browser is the same, signed in as someone else), and kept for this app on another device
   * id, that row is replaced. `created` is false when the row existed.
   */
  upsert(
    subscription: NewPushSubscription,
  ): Promise<{ subscription: PushSubscriptionRecord; created: boolean }>;
  get(id: string): Promise<PushSubscriptionRecord | null>;
  /** A person's subscriptions, in one app when given, oldest first. */
  listForUser(userId: string, appId?: string): Promise<PushSubscriptionRecord[]>;
  /** The row of the browser subscription at `endpoint` for `appId`, or for any app when not given. */
  getByEndpoint(endpoint: string, appId?: string): Promise<PushSubscriptionRecord | null>;
  /**
   * Deletes the browser subscription at `endpoint` (every app's row: the push service dropped it),
   * only `userId`'s rows when given, only `appId`'s when given.
   */
  deleteByEndpoint(endpoint: string, only?: { userId?: string; appId?: string }): Promise<boolean>;
  deleteForDevice(userId: string, appId: string, deviceId: string): Promise<boolean>;
  /** Every subscription of a person (their account is deleted); returns how many went. */
  deleteForUser(userId: string): Promise<number>;
  /** Its push service accepted a message at `at`: failures back to 0. False for no such row. */
  recordSuccess(id: string, at: number): Promise<boolean>;
  /**
   * One more consecutive failure at `at`; the row is disabled once it has
   * PUSH_FAILURES_BEFORE_DISABLE of them. Null when the row is gone.
   */
  recordFailure(id: string, at: number): Promise<PushSubscriptionRecord | null>;
  /**
   * Deletes every subscription made with another application server key than `vapidPublicKey`
   * (the keys were changed: push services refuse them all). Returns how many went.
   */
  deleteForOtherKeys(vapidPublicKey: string): Promise<number>;
}

import { EMAIL_DIGEST_CHOICES, type EmailDigestChoice } from '@pipit/protocol';
import type { NewPushSubscription, PushSubscriptionRecord } from './push-subscriptions';

/*
 * Creators' notifications (docs/product/reminders.md#creators-notifications): what happened to a
 * person's apps, the Pipit platform's own push subscriptions they go to, and the email digest for
 * people without one.
 */

export const CREATOR_NOTIFICATION_KINDS = [
  /** The app's owner added the person as a collaborator. */
  'collaborator_added',
  /** Someone else who edits the app published a version of it. */
  'published',
  /** The app's first visitor of the (UTC) day opened it. */
  'first_visit',
] as const;
export type CreatorNotificationKind = (typeof CREATOR_NOTIFICATION_KINDS)[number];

export interface CreatorNotificationRecord {
  id: string;
  /** Who it is for. */
  userId: string;
  appId: string;
  kind: CreatorNotificationKind;
  /** Who did it, when a person did (null for a visitor). */
  actorId: string | null;
  /** Two notifications for one person with the same key are one (the first is kept). */
  dedupeKey: string;
  createdAt: number;
  /** The next email digest carries it. */
  digestPending: boolean;
  digestedAt: number | null;
}

export { EMAIL_DIGEST_CHOICES, type EmailDigestChoice };

export type DigestStatus = 'sending' | 'sent';

/** A Pipit platform subscription: as an app's, with the reserved PLATFORM_PUSH_APP_ID as app. */
export type NewPlatformPushSubscription = Omit<NewPushSubscription, 'appId'>;

export interface CreatorNotificationStore {
  /**
   * Stores a notification; false (and nothing stored) when the person already has one with its
   * `dedupeKey`.
   */
  add(notification: CreatorNotificationRecord): Promise<boolean>;
  /** A person's newest notifications first, at most `limit`. */
  listForUser(userId: string, limit: number): Promise<CreatorNotificationRecord[]>;
  /** The notifications the person's next digest carries, oldest first. */
  pendingDigest(userId: string): Promise<CreatorNotificationRecord[]>;
  /** People with notifications waiting for a digest, a page at a time after `after`. */
  usersWithPendingDigest(limit: number, after?: string): Promise<string[]>;
  /**
   * Takes a person's digest of `day` (YYYY-MM-DD, on the calendar of the zone it keeps to) before
   * it is sent: true when this call
   * inserted it, or it is still `sending` for the same `claimant` (a retry of that job). False
   * when another job has it or it was sent.
   */
  claimDigest(userId: string, day: string, claimant: string, now: number): Promise<boolean>;
  /** The digest was sent (or had nothing to send): it and the notifications it carried are done. */
  finishDigest(userId: string, day: string, carried: string[], now: number): Promise<void>;
  digestStatus(userId: string, day: string): Promise<DigestStatus | null>;
  /** Nothing waits for a digest any more (the person turned it off). Returns how many did. */
  dropPending(userId: string): Promise<number>;
  emailDigest(userId: string): Promise<EmailDigestChoice>;
  /** The zone the person's digest keeps to, as they last told it; null when they never did. */
  digestTimeZone(userId: string): Promise<string | null>;
  /** Stores the choice, and the zone when one is given (the one stored before stays otherwise). */
  setEmailDigest(
    userId: string,
    choice: EmailDigestChoice,
    now: number,
    timeZone?: string,
  ): Promise<void>;
  /**
   * The person's account is deleted: their notifications, choices, digests and platform push
   * subscriptions go. Returns how many rows went.
   */
  deleteForUser(userId: string): Promise<number>;

  /** Subscribes a device for Pipit itself; as PushSubscriptionStore.upsert, one row per device. */
  upsertPlatformSubscription(
    subscription: NewPlatformPushSubscription,
  ): Promise<{ subscription: PushSubscriptionRecord; created: boolean }>;
  getPlatformSubscription(id: string): Promise<PushSubscriptionRecord | null>;
  listPlatformSubscriptions(userId: string): Promise<PushSubscriptionRecord[]>;
  /** Only `userId`'s row when given. */
  deletePlatformSubscription(endpoint: string, userId?: string): Promise<boolean>;
  /** As PushSubscriptionStore.recordSuccess: false for no such row. */
  recordPlatformSuccess(id: string, at: number): Promise<boolean>;
  recordPlatformFailure(id: string, at: number): Promise<PushSubscriptionRecord | null>;
}

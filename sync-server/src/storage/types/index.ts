import type { StorageEngine } from '@pipit/protocol';
import type { AiUsageStore } from './ai-usage';
import type { AppStore } from './apps';
import type { AppChangeStore } from './app-changes';
import type { CheckpointStore } from './checkpoints';
import type { SuggestionStore } from './suggestions';
import type { DraftStore } from './drafts';
import type { CreatorNotificationStore } from './creator-notifications';
import type { DocumentStore } from './documents';
import type { JobStore } from './jobs';
import type { MonitoringStore } from './monitoring';
import type { OperatorStore } from './operators';
import type { PortableStore } from './portable';
import type { PublishingStore } from './publishing';
import type { PushSubscriptionStore } from './push-subscriptions';
import type { RecordFileStore } from './record-files';
import type { ReminderDeliveryStore } from './reminder-deliveries';
import type { ReminderPreferenceStore } from './reminder-preferences';
import type { SpaceActivityStore } from './space-activity';
import type { SessionStore } from './sessions';
import type { SpaceStore } from './spaces';
import type {
  HumanCheckStore,
  MessageStore,
  RateLimitStore,
  SecretStore,
  BackupRunStore,
  InstanceStore,
  UploadStore,
} from './small-stores';
import type { TokenStore } from './tokens';
import type { UserStore } from './users';

export type { UserRecord, NewUser, UserPatch, UserStore } from './users';
export type { LoggedUpdate, DocumentStore, DocumentOwner, StoredDocument } from './documents';
export type { OperatorRecord, OperatorStore } from './operators';
export type { SessionRecord, SessionStore } from './sessions';
export type { TokenKind, NewToken, TokenUse, TokenStore } from './tokens';
export type {
  RateLimitStore,
  HumanCheckStore,
  SecretStore,
  BackupRun,
  BackupRunStore,
  InstanceStatus,
  InstanceStore,
  MessageRecord,
  MessageStore,
  UploadRecord,
  UploadStore,
} from './small-stores';
export type {
  RecordFileRecord,
  RecordFileInfo,
  RecordFileWrite,
  RecordFileStore,
} from './record-files';
export type { AppRecord, NewApp, AppListing, CollaboratorRecord, AppStore } from './apps';
export type {
  VersionListing,
  AppVersionRecord,
  NewAppVersion,
  AppCardRecord,
  ExploreSearch,
  AppEventKind,
  PublishingStore,
} from './publishing';
export type { CheckpointRecord, NewCheckpoint, CheckpointStore } from './checkpoints';
export type { AppChangeQuery, AppChangeRecord, AppChangeStore, NewAppChange } from './app-changes';
export type { NewSuggestion, SuggestionRecord, SuggestionStore } from './suggestions';
export type { DraftRecord, DraftStore, NewDraft } from './drafts';
export type { CommitOutcome, ImportedApp, PortableStore } from './portable';
export type {
  SpaceRecord,
  NewSpace,
  SpaceWithRole,
  SpaceMemberRecord,
  SpaceInviteRecord,
  NewSpaceInvite,
  SpaceDeletion,
  SpaceEndingRecord,
  SpaceStore,
} from './spaces';
export { ERROR_SOURCES } from './monitoring';
export type {
  ErrorSource,
  ErrorEventRecord,
  ErrorGroupRecord,
  MonitoringStore,
} from './monitoring';
export type { AiUsageRecord, AiDailyUsage, AiUsageStore } from './ai-usage';
export type {
  PushSubscriptionRecord,
  NewPushSubscription,
  PushSubscriptionStore,
} from './push-subscriptions';
export type {
  OccurrenceKey,
  OccurrenceOutcome,
  OccurrenceStatus,
  ReminderDeliveryStore,
} from './reminder-deliveries';
export { PLATFORM_PUSH_APP_ID, PUSH_FAILURES_BEFORE_DISABLE } from './push-subscriptions';
export {
  CREATOR_NOTIFICATION_KINDS,
  EMAIL_DIGEST_CHOICES,
  type CreatorNotificationKind,
  type CreatorNotificationRecord,
  type CreatorNotificationStore,
  type DigestStatus,
  type EmailDigestChoice,
  type NewPlatformPushSubscription,
} from './creator-notifications';
export type {
  ReminderKey,
  ReminderPreferenceRecord,
  ReminderPreferenceStore,
} from './reminder-preferences';
export type {
  SpaceActivityItem,
  SpaceActivityKind,
  SpaceActivityPreferenceRecord,
  SpaceActivityStore,
} from './space-activity';
export type { JobRecord, NewJob, JobStore } from './jobs';
export { ConflictError, NotFoundError } from './errors';

/**
 * The one storage interface (docs/decisions/0005-sqlite-default-postgres-optional.md). Two
 * adapters implement it, SQLite and PostgreSQL, and one contract suite (sync-server/test/storage/storage-contract.ts)
 * runs against both.
 */
export interface Storage {
  readonly engine: StorageEngine;
  readonly documents: DocumentStore;
  readonly apps: AppStore;
  readonly publishing: PublishingStore;
  readonly users: UserStore;
  readonly operators: OperatorStore;
  readonly sessions: SessionStore;
  readonly tokens: TokenStore;
  readonly rateLimits: RateLimitStore;
  readonly humanChecks: HumanCheckStore;
  readonly secrets: SecretStore;
  /** The server's scheduled backups and their drills (docs/operations.md#scheduled-backups). */
  readonly backupRuns: BackupRunStore;
  /** Each instance's figures and the database's size, for the operator's health view. */
  readonly instances: InstanceStore;
  readonly messages: MessageStore;
  readonly uploads: UploadStore;
  /** Photos and files on records (docs/product/records.md#photos-and-files-on-records). */
  readonly recordFiles: RecordFileStore;
  /** Error reports from browsers and this server (docs/product/error-reporting.md). */
  readonly monitoring: MonitoringStore;
  /** AI quota and usage. */
  readonly aiUsage: AiUsageStore;
  /** Apps' history: checkpoints of their definitions. */
  readonly checkpoints: CheckpointStore;
  /** Who changed what in each app (docs/product/history.md#who-changed-what). */
  readonly appChanges: AppChangeStore;
  /** Ask AI's suggestions kept for review (docs/product/ai-builder.md#suggestions-kept-for-review). */
  readonly suggestions: SuggestionStore;
  /** Drafts of an app (docs/product/drafts.md). */
  readonly drafts: DraftStore;
  /** Moving apps between servers: what an import checks and writes (docs/product/portable-file.md). */
  readonly portable: PortableStore;
  /** Shared spaces: their members, roles and invitation links (docs/product/spaces.md). */
  readonly spaces: SpaceStore;
  /** Web Push subscriptions (docs/decisions/0012-web-push-and-scheduler.md#subscriptions). */
  readonly pushSubscriptions: PushSubscriptionStore;
  /** Reminders delivered once per occurrence (docs/decisions/0012-web-push-and-scheduler.md). */
  readonly reminderDeliveries: ReminderDeliveryStore;
  /** People's choices for apps' reminders (docs/product/reminders.md). */
  readonly reminderPreferences: ReminderPreferenceStore;
  /** Who is told of what others do in a space, and what waits to be told (docs/product/reminders.md#space-activity). */
  readonly spaceActivity: SpaceActivityStore;
  /** Creators' notifications, Pipit's own push subscriptions and email digests (docs/product/reminders.md). */
  readonly creatorNotifications: CreatorNotificationStore;
  /** The in-process scheduler's queue; only the SQLite scheduler uses it (src/scheduler/). */
  readonly jobs: JobStore;
  /** Names of the applied migrations, oldest first. */
  appliedMigrations(): Promise<string[]>;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

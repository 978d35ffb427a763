import type { AiProvider } from '../ai/provider';
import type { AccountService } from '../accounts/account-service';
import type { Clock } from '../accounts/clock';
import type { HumanCheck } from '../accounts/human-check';
import type { Operators } from '../accounts/operators';
import type { ProfileService } from '../accounts/profile-service';
import type { RateLimiter } from '../accounts/rate-limits';
import type { SessionService } from '../accounts/sessions';
import type { DataRemoval } from '../collab/data-removal';
import type { MonitoringConfig } from '../config';
import type { Attribution } from '../history/attribution';
import type { History } from '../history/checkpoints';
import type { Logger } from '../logger';
import type { ServerErrorReport } from '../monitoring/server-error';
import type { LiveDocuments } from '../publishing/app-document';
import type { Push } from '../push/push';
import type { SpaceWatches } from '../activity/watchers';
import type { CreatorNotifications } from '../creators/creator-notifications';
import type { UnsubscribeLinks } from '../creators/unsubscribe';
import type { Reminders } from '../reminders/reminders';
import type { Storage } from '../storage/types';

/** What the sync server must do when access to an app changes under open connections. */
export interface AccessChanges {
  /** A person lost access to an app (removed, or the app was deleted). */
  revoked(appId: string, userId: string | null): Promise<void>;
  /** A person's role changed: their connection authenticates again with the new one. */
  roleChanged(appId: string, userId: string): Promise<void>;
  /**
   * Who may visit the app changed (visibility, unpublished): the visitors' data connections of
   * those who may no longer see it are closed.
   */
  visitorsChanged(appId: string): Promise<void>;
  /** A person left or was removed from a shared space (null: everyone in it). */
  spaceRevoked(spaceId: string, userId: string | null): Promise<void>;
  /** A person's role in a shared space changed: their connection authenticates again. */
  spaceRoleChanged(spaceId: string, userId: string): Promise<void>;
}

export interface ApiDependencies {
  storage: Storage;
  /** BACKUP_SCHEDULE and BACKUP_KEEP, for the operator's health view. */
  backupSettings?: { schedule: string | undefined; keep: number };
  logger: Logger;
  publicOrigin: string | undefined;
  trustProxy: boolean;
  sessions: SessionService;
  accounts: AccountService;
  profiles: ProfileService;
  humanCheck: HumanCheck;
  rateLimiter: RateLimiter;
  clock: Clock;
  /** Closes sync connections whose access an endpoint changed. */
  accessChanges: AccessChanges;
  /** Deletes an app's or an account's documents and rows, closing them first where they are open. */
  dataRemoval: DataRemoval;
  /** Apps' checkpoints (docs/product/history.md). */
  history: History;
  /** Who changed what: what this instance gathered is written before it is read. */
  attribution: Pick<Attribution, 'flush'>;
  /** The app documents this instance has loaded, so publishing reads their newest state. */
  liveDocuments?: LiveDocuments;
  /** True once a graceful shutdown began (`GET /api/ready` then answers 503). */
  shuttingDown?: () => boolean;
  /** Error reporting's settings (`/api/client-config` tells browsers where to report). */
  monitoring: MonitoringConfig;
  /** Who sees the operator's inbox. */
  operators: Pick<Operators, 'isOperatorAccount'>;
  /** The AI provider; undefined without AI_BASE_URL (every AI endpoint: `ai_not_configured`). */
  ai: AiProvider | undefined;
  /** Runs of AI actions one person may make per UTC day (AI_DAILY_RUNS). */
  aiDailyRuns: number;
  /** Web Push: the VAPID keys and the sender (docs/decisions/0012-web-push-and-scheduler.md). */
  push: Push;
  /** Apps' reminders: queuing a person's next occurrence (docs/product/reminders.md). */
  reminders: Pick<Reminders, 'scheduleNext' | 'published' | 'joinedSpace'>;
  /** Space activity: a choice changed here is seen by this instance's loaded documents at once. */
  spaceActivity: { watches: Pick<SpaceWatches, 'forget'> };
  /** Creators' notifications: telling people what happened to their apps (docs/product/reminders.md). */
  creators: Pick<CreatorNotifications, 'notify' | 'visited'>;
  /** The email digest's signed one-click unsubscribe links. */
  unsubscribe: UnsubscribeLinks;
  /** Keeps a failure with its digest for the operator's inbox (never throws). */
  reportServerError?: (report: ServerErrorReport) => void;
}

import type { Kysely } from 'kysely';
import { appliedMigrations } from '../migrations';
import type { Database } from '../schema';
import type { Storage } from '../types';
import { createAiUsageStore } from './ai-usage';
import { createAppStore } from './apps';
import { createAppChangeStore } from './app-changes';
import { createCheckpointStore } from './checkpoints';
import { createSuggestionStore } from './suggestions';
import { createDraftStore } from './drafts';
import { createDocumentStore } from './documents';
import { createJobStore } from './jobs';
import { createMonitoringStore } from './monitoring';
import { createOperatorStore } from './operators';
import { createPortableStore } from './portable';
import { createPublishingStore } from './publishing';
import { createPushSubscriptionStore } from './push-subscriptions';
import { createCreatorNotificationStore } from './creator-notifications';
import { createRecordFileStore } from './record-files';
import { createReminderDeliveryStore } from './reminder-deliveries';
import { createReminderPreferenceStore } from './reminder-preferences';
import { createSessionStore } from './sessions';
import { createSpaceActivityStore } from './space-activity';
import { createSpaceStore } from './spaces';
import type { EngineSpecifics } from './shared';
import {
  createHumanCheckStore,
  createMessageStore,
  createRateLimitStore,
  createSecretStore,
  createBackupRunStore,
  createInstanceStore,
  createUploadStore,
} from './small-stores';
import { createTokenStore } from './tokens';
import { createUserStore } from './users';

export type { EngineSpecifics } from './shared';

/**
 * The storage interface over Kysely: queries are written once and run on both engines; each adapter
 * supplies its dialect and the few engine specifics.
 */
export function createKyselyStorage(db: Kysely<Database>, specifics: EngineSpecifics): Storage {
  return {
    engine: specifics.engine,
    documents: createDocumentStore(db, specifics.engine, specifics.appendUpdates),
    apps: createAppStore(db, specifics.engine),
    publishing: createPublishingStore(db),
    users: createUserStore(db, specifics),
    operators: createOperatorStore(db),
    sessions: createSessionStore(db),
    tokens: createTokenStore(db),
    rateLimits: createRateLimitStore(db),
    humanChecks: createHumanCheckStore(db),
    secrets: createSecretStore(db),
    backupRuns: createBackupRunStore(db),
    instances: createInstanceStore(db, specifics.engine),
    messages: createMessageStore(db),
    uploads: createUploadStore(db, specifics.engine),
    recordFiles: createRecordFileStore(db, specifics.engine),
    monitoring: createMonitoringStore(db),
    aiUsage: createAiUsageStore(db),
    checkpoints: createCheckpointStore(db),
    appChanges: createAppChangeStore(db),
    suggestions: createSuggestionStore(db),
    drafts: createDraftStore(db),
    portable: createPortableStore(db, specifics),
    spaces: createSpaceStore(db, specifics.engine),
    pushSubscriptions: createPushSubscriptionStore(db, specifics),
    reminderDeliveries: createReminderDeliveryStore(db),
    reminderPreferences: createReminderPreferenceStore(db),
    spaceActivity: createSpaceActivityStore(db),
    creatorNotifications: createCreatorNotificationStore(db, specifics),
    jobs: createJobStore(db),
    appliedMigrations: () => appliedMigrations(db as Kysely<unknown>, specifics.engine),
    async ping() {
      await db.selectFrom('documents').select('name').limit(1).execute();
    },
    async close() {
      await db.destroy();
      await specifics.afterClose?.();
    },
  };
}

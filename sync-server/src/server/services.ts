import { hasDefinition, readDefinition } from '@pipit/app-definition';
import type { RecordsDocument } from '@pipit/protocol';
import type { Hono } from 'hono';
import type * as Y from 'yjs';
import { createAccountService } from '../accounts/account-service';
import { type Clock, systemClock } from '../accounts/clock';
import { createSpaceActivity, type SpaceActivity } from '../activity/activity';
import { createScheduledBackups, type ScheduledBackups } from '../backup/scheduled-backups';
import { type Heartbeat, startHeartbeat } from './heartbeat';
import { openServerSource } from '../backup/sources';
import { type Attribution, createAttribution } from '../history/attribution';
import { createHumanCheck } from '../accounts/human-check';
import { createMailer, type Mailer } from '../accounts/mailer';
import { createOperators } from '../accounts/operators';
import { createProfileService } from '../accounts/profile-service';
import { createRateLimiter, DEFAULT_RATE_LIMITS, type RateLimiter } from '../accounts/rate-limits';
import { createSessionService, type SessionService } from '../accounts/sessions';
import { createAiProvider } from '../ai/provider';
import { createDocumentAccess, type DocumentAccess } from '../collab/access';
import { type Collab, createCollab } from '../collab/create-collab';
import { createDataRemoval } from '../collab/data-removal';
import { startRecordFileSweep } from '../collab/record-files';
import { type Cluster, createCluster } from '../collab/fan-out';
import { DEFAULT_RESOURCE_LIMITS, defaultHeapBudgetBytes } from '../collab/resource-limits';
import { createSpaceRules } from '../collab/space-rules';
import type { CreateServerOptions } from '../create-server';
import { createHistory, type History } from '../history/checkpoints';
import { createApi } from '../http/api';
import type { ApiEnv } from '../http/context';
import { createLogger, type Logger } from '../logger';
import { createMetrics, type Metrics } from '../metrics';
import { createMonitoring, type Monitoring } from '../monitoring/create-monitoring';
import { createPush, type Push } from '../push/push';
import {
  type CreatorNotifications,
  createCreatorNotifications,
} from '../creators/creator-notifications';
import { createUnsubscribeLinks, type UnsubscribeLinks } from '../creators/unsubscribe';
import { createReminders, type Reminders } from '../reminders/reminders';
import { createSharedScheduler, openScheduler, type SharedScheduler } from '../scheduler';
import { openStorage } from '../storage/open-storage';
import type { Storage } from '../storage/types';
import { clusterEventHandlers } from './cluster-events';

/** What the parts of one server change as it runs (create-server.ts). */
export interface ServerState {
  /** True once a graceful shutdown began. */
  shuttingDown: boolean;
  /** The port the server listens on (links in emails use it when no public origin is set). */
  listeningPort: number;
}

/** The storage, the cluster and the collaboration layer: what everything else is built on. */
export interface ServerCore {
  logger: Logger;
  storage: Storage;
  clock: Clock;
  metrics: Metrics;
  mailer: Mailer;
  sessions: SessionService;
  access: DocumentAccess;
  cluster: Cluster;
  /** Apps' checkpoints (docs/product/history.md). */
  history: History;
  /** Who changed what in each app (docs/product/history.md#who-changed-what). */
  attribution: Attribution;
  collab: Collab;
  /** The one job queue every kind of job shares, started on first use. */
  scheduler: SharedScheduler;
  /** Telling members what others do in a space (docs/product/reminders.md#space-activity). */
  spaceActivity: SpaceActivity;
  /**
   * Told when a document of records (a person's data, a space's) is stored; set once the services that listen exist (the
   * reminders are built after the collaboration layer that stores documents).
   */
  recordsStored: { listener?: (name: RecordsDocument, document: Y.Doc) => Promise<void> };
}

/** The core and the services the HTTP side uses. */
export interface ServerServices extends ServerCore {
  rateLimiter: RateLimiter;
  monitoring: Monitoring;
  api: Hono<ApiEnv>;
  /** Deletes photos and files no record refers to any more, every hour. */
  recordFileSweep: { stop(): Promise<void> };
  /** Backups on BACKUP_SCHEDULE (docs/operations.md#scheduled-backups). */
  backups: ScheduledBackups;
  /** This instance's figures for the operator's health view, every 15 s. */
  heartbeat: Heartbeat;
  /** Web Push: the VAPID keys and the sender (docs/decisions/0012-web-push-and-scheduler.md). */
  push: Push;
  /** Apps' reminders, on the job scheduler (docs/product/reminders.md). */
  reminders: Reminders;
  /** Creators' notifications and their email digest (docs/product/reminders.md). */
  creators: CreatorNotifications;
  /** The signed unsubscribe links of the emails that are a mailing. */
  unsubscribe: UnsubscribeLinks;
}

/** Builds every service of one server, in the order each needs the others. */
export async function createServices(
  options: CreateServerOptions,
  state: ServerState,
): Promise<ServerServices> {
  const core = await createCore(options);
  return { ...core, ...createApiServices(options, core, state) };
}

/** Storage, sessions, document access, the cluster and the collaboration layer. */
async function createCore(options: CreateServerOptions): Promise<ServerCore> {
  const { config } = options;
  const logger = options.logger ?? createLogger(config.logLevel);
  const storage = options.storage ?? (await openStorage(config, logger));
  const clock = options.clock ?? systemClock;
  const metrics =
    options.metrics ?? createMetrics({ processMetrics: config.metricsToken !== undefined });
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    dataDir: config.dataDir,
    logger,
  });
  // A session that ends (sign-out, sign-out everywhere, password change) loses its documents too,
  // on every instance.
  const sessions = createSessionService(storage, clock, (ids) => {
    void cluster.broadcast({ kind: 'sessions-ended', sessionIds: ids });
  });
  const access =
    options.access ??
    createDocumentAccess({
      storage,
      sessions,
      publicOrigin: config.publicOrigin,
      trustProxy: config.trustProxy,
    });
  const cluster = await createCluster({
    redis: config.redis,
    instanceName: config.instanceName,
    logger,
    ...clusterEventHandlers({ collab: () => collab, access, storage, logger }),
  });
  const history = createHistory({ storage, clock, logger });
  const attribution = createAttribution({ storage, clock, logger });
  // One queue for every kind of job, opened when a module first queues one
  // (scheduler/shared-scheduler.ts).
  const scheduler = createSharedScheduler(() =>
    openScheduler({
      storage,
      config,
      logger,
      clock,
      ...(options.schedulerPollMs !== undefined ? { pollIntervalMs: options.schedulerPollMs } : {}),
      ...options.schedulerLeases,
    }),
  );
  const spaceActivity = createSpaceActivity({
    storage,
    scheduler,
    clock,
    logger,
    ...(options.activityBatchMs !== undefined ? { batchMs: options.activityBatchMs } : {}),
  });
  const recordsStored: ServerCore['recordsStored'] = {};
  const collab = createCollab({
    watchers: [spaceActivity.extension, attribution.extension],
    fanOut: cluster.extension,
    // A person's refusals slow them down for a minute of the server's clock (tests move it).
    now: () => clock.now(),
    // Which records of a shared space each member may change: its app's published rules.
    spaceRules: createSpaceRules({
      storage,
      appOfSpace: async (spaceId) => (await storage.spaces.get(spaceId))?.appId ?? null,
      onRefreshFailed: (spaceId, err: unknown) =>
        logger.warn({ err, spaceId }, "reading a space's record rules again failed"),
    }),
    // An app's history starts with its first definition, never with the empty document before it.
    afterAppStored: (appId, document, authorIds, final) =>
      hasDefinition(document)
        ? history.afterStore(appId, () => readDefinition(document), authorIds, final)
        : Promise.resolve(false),
    afterRecordsStored: (name, document) =>
      recordsStored.listener?.(name, document) ?? Promise.resolve(),
    documents: storage.documents,
    apps: storage.apps,
    access,
    limits: {
      ...DEFAULT_RESOURCE_LIMITS,
      heapBudgetBytes: config.heapBudgetBytes ?? defaultHeapBudgetBytes(),
      ...options.resourceLimits,
    },
    logger,
    timings: metrics.collab,
    ...(options.storeDebounceMs !== undefined ? { debounceMs: options.storeDebounceMs } : {}),
    ...(options.storeMaxDebounceMs !== undefined
      ? { maxDebounceMs: options.storeMaxDebounceMs }
      : {}),
  });
  return {
    logger,
    storage,
    clock,
    metrics,
    mailer,
    sessions,
    access,
    cluster,
    history,
    attribution,
    collab,
    scheduler,
    spaceActivity,
    recordsStored,
  };
}

/** Removing data, rate limits, error reporting, accounts, and the REST API that uses them all. */
function createApiServices(
  options: CreateServerOptions,
  core: ServerCore,
  state: ServerState,
): Omit<ServerServices, keyof ServerCore> {
  const { config } = options;
  const { logger, storage, clock, sessions, mailer, cluster, history, collab } = core;
  const dataRemoval = createDataRemoval(storage, cluster, clock);
  const rateLimiter = createRateLimiter(
    storage,
    { ...DEFAULT_RATE_LIMITS, ...options.rateLimits },
    clock,
  );
  // Error reports from browsers (/monitoring) and from this server's own failures (docs/product/error-reporting.md).
  const monitoring = createMonitoring({
    config: config.monitoring,
    store: storage.monitoring,
    budgetStore: storage.rateLimits,
    clock,
    logger,
  });
  const push = createPush({
    config: config.push,
    storage,
    rateLimiter,
    clock,
    logger,
    ...(options.pushAgent ? { agent: options.pushAgent } : {}),
    ...(options.pushEndpoints ? { acceptsEndpoint: options.pushEndpoints } : {}),
  });
  const reminders = createReminders({
    storage,
    scheduler: core.scheduler,
    sender: push.sender,
    clock,
    logger,
  });
  // Links in emails never follow a request's Host header (an attacker could choose it).
  const linkBase = () => config.publicOrigin ?? `http://localhost:${state.listeningPort}`;
  const unsubscribe = createUnsubscribeLinks(storage, linkBase);
  const creators = createCreatorNotifications({
    storage,
    sender: push.sender,
    mailer,
    clock,
    logger,
    scheduler: core.scheduler,
    unsubscribe,
    linkBase,
  });
  // Backups on BACKUP_SCHEDULE, made by whichever instance claims each due time.
  const backups = createScheduledBackups({
    config: config.backups,
    storage,
    scheduler: core.scheduler,
    clock,
    logger,
    instanceName: config.instanceName,
    openSource: () => openServerSource(config),
  });
  core.scheduler.work('backup', backups.run, { retryLimit: 0, concurrency: 1 });
  backups
    .resume()
    .catch((err: unknown) =>
      logger.warn({ err, task: 'backup' }, 'queuing the next scheduled backup failed'),
    );
  const heartbeat = startHeartbeat({
    storage,
    metrics: core.metrics,
    clock,
    logger,
    instanceName: config.instanceName,
  });
  core.spaceActivity.useSender(push.sender);
  // Batches that waited through a restart are sent by this instance's queue too.
  core.spaceActivity
    .resume()
    .catch((err: unknown) =>
      logger.warn({ err, task: 'space-activity' }, 'starting the space activity queue failed'),
    );
  core.recordsStored.listener = reminders.recordsStored;
  const accounts = createAccountService({
    storage,
    sessions,
    mailer,
    rateLimiter,
    clock,
    logger,
    linkBase,
    usernameHoldMs: config.usernameHoldDays * 24 * 60 * 60 * 1000,
    removeAccountData: dataRemoval.account,
  });
  const api = createApi({
    storage,
    backupSettings: config.backups,
    logger,
    publicOrigin: config.publicOrigin,
    trustProxy: config.trustProxy,
    sessions,
    accounts,
    profiles: createProfileService({
      storage,
      clock,
      releaseHeldUsername: accounts.releaseHeldUsername,
    }),
    humanCheck: createHumanCheck({
      storage,
      difficulty: config.humanCheckDifficulty,
      clock,
      ...(options.humanCheckTtlMs !== undefined ? { challengeTtlMs: options.humanCheckTtlMs } : {}),
    }),
    rateLimiter,
    clock,
    liveDocuments: collab.hocuspocus.documents,
    history,
    attribution: core.attribution,
    reportServerError: monitoring.reportServerError,
    monitoring: config.monitoring,
    ai: createAiProvider(config.ai, logger),
    aiDailyRuns: config.aiDailyRuns,
    operators: createOperators({ storage, clock }),
    shuttingDown: () => state.shuttingDown,
    dataRemoval,
    push,
    reminders,
    spaceActivity: core.spaceActivity,
    creators,
    unsubscribe,
    accessChanges: {
      revoked: (appId, userId) =>
        cluster.broadcast({ kind: 'app-access', appId, userId, reason: 'forbidden' }),
      roleChanged: (appId, userId) =>
        cluster.broadcast({ kind: 'app-access', appId, userId, reason: 'role_changed' }),
      visitorsChanged: (appId) => cluster.broadcast({ kind: 'visitors-changed', appId }),
      spaceRevoked: (spaceId, userId) =>
        cluster.broadcast({ kind: 'space-access', spaceId, userId, reason: 'forbidden' }),
      spaceRoleChanged: (spaceId, userId) =>
        cluster.broadcast({ kind: 'space-access', spaceId, userId, reason: 'role_changed' }),
    },
  });
  const recordFileSweep = startRecordFileSweep({ storage, clock, logger });
  return {
    rateLimiter,
    monitoring,
    api,
    recordFileSweep,
    backups,
    heartbeat,
    push,
    reminders,
    creators,
    unsubscribe,
  };
}

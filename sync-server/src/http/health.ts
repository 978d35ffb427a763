import type { Hono } from 'hono';
import type {
  HealthResponse,
  NotReadyReason,
  NotReadyResponse,
  ReadyResponse,
} from '@pipit/protocol';
import { MIGRATION_NAMES } from '../storage/migrations';
import type { Storage } from '../storage/types';
import { VERSION } from '../version';
import type { ApiDependencies } from './api-dependencies';
import type { ApiEnv } from './context';

/** A database that takes longer than this to answer a trivial query should get no traffic. */
export const READY_STORAGE_TIMEOUT_MS = 2_000;

class NotReady extends Error {
  constructor(
    readonly reason: NotReadyReason,
    options?: ErrorOptions,
  ) {
    super(reason, options);
  }
}

/** Storage answers, and has every migration this version of the code knows. */
async function checkStorage(storage: Storage): Promise<number> {
  try {
    await storage.ping();
  } catch (error) {
    throw new NotReady('storage_unreachable', { cause: error });
  }
  const applied = new Set(await storage.appliedMigrations());
  if (!MIGRATION_NAMES.every((name) => applied.has(name))) throw new NotReady('migrations_pending');
  return MIGRATION_NAMES.length;
}

function withinTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new NotReady('storage_timeout')), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * `GET /api/health`: liveness — the process is up, on which storage engine, at which version. It
 * never touches the database, so a database outage does not get the process restarted.
 *
 * `GET /api/ready`: readiness — whether a load balancer should send this instance traffic: the
 * storage answers within 2 s, every migration is applied, and the instance is not shutting down.
 * A 503 names the reason and nothing more (the log has the error).
 */
export function registerHealth(app: Hono<ApiEnv>, deps: ApiDependencies): void {
  const { storage } = deps;
  const shuttingDown = () => deps.shuttingDown?.() ?? false;

  app.get('/health', (c) => {
    const body: HealthResponse = { status: 'ok', storage: storage.engine, version: VERSION };
    return c.json(body);
  });

  app.get('/ready', async (c) => {
    const notReady = (reason: NotReadyReason) =>
      c.json({ status: 'not_ready', reason } satisfies NotReadyResponse, 503);
    if (shuttingDown()) return notReady('shutting_down');
    let migrations: number;
    try {
      migrations = await withinTimeout(checkStorage(storage), READY_STORAGE_TIMEOUT_MS);
    } catch (error) {
      const reason = error instanceof NotReady ? error.reason : 'storage_unreachable';
      const cause = error instanceof NotReady ? error.cause : error;
      c.get('logger').warn({ ...(cause ? { err: cause } : {}), reason }, 'not ready for traffic');
      return notReady(reason);
    }
    // The shutdown may have begun while storage was being asked.
    if (shuttingDown()) return notReady('shutting_down');
    const body: ReadyResponse = { status: 'ready', storage: storage.engine, migrations };
    return c.json(body);
  });
}

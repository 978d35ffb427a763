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
    options?: ErrorOptions & { part?: string },
  ) {
    super(reason, options);
    this.part = options?.part;
  }
  /** Which part cannot work, for the log (`part_unavailable`). */
  readonly part: string | undefined;
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

/**
 * The parts an instance needs beyond storage, each able to say it works: the human check guards
 * sign-up, sign-in, password resets and the contact form, and reads its secrets once (a failed read
 * is tried again, read-once.ts). While one cannot work, the load balancer must send people
 * elsewhere.
 */
async function checkParts(deps: ApiDependencies): Promise<void> {
  const parts: Array<[name: string, ready: () => Promise<void>]> = [
    ['human check', () => deps.humanCheck.ready()],
  ];
  for (const [part, ready] of parts) {
    try {
      await ready();
    } catch (error) {
      throw new NotReady('part_unavailable', { cause: error, part });
    }
  }
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
 * storage answers within 2 s, every migration is applied, every part the instance needs works
 * (`checkParts`), and the instance is not shutting down.
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
      migrations = await withinTimeout(
        checkStorage(storage).then(async (count) => {
          await checkParts(deps);
          return count;
        }),
        READY_STORAGE_TIMEOUT_MS,
      );
    } catch (error) {
      const reason = error instanceof NotReady ? error.reason : 'storage_unreachable';
      const cause = error instanceof NotReady ? error.cause : error;
      const part = error instanceof NotReady ? error.part : undefined;
      c.get('logger').warn(
        { ...(cause ? { err: cause } : {}), reason, ...(part ? { part } : {}) },
        'not ready for traffic',
      );
      return notReady(reason);
    }
    // The shutdown may have begun while storage was being asked.
    if (shuttingDown()) return notReady('shutting_down');
    const body: ReadyResponse = { status: 'ready', storage: storage.engine, migrations };
    return c.json(body);
  });
}

/**
 * Reminder figures: one Pipit instance sending 10,000 reminders that fall due in the same minute
 * (docs/product/reminders.md#figures), and what its scheduler costs when nothing is due. Prints
 * figures; not a pass/fail test.
 *
 * The server is a real process (the production entry through
 * sync-server/test/fixtures/serve-with-push-stand-in.ts), so its CPU and memory are its own; the
 * push-service stand-in, which decrypts every message as a browser would, runs in this process on
 * loopback. People, their reminder choices and devices are written straight into storage before
 * the server starts (sign-ups would take longer than the sending). Each has one reminder at the
 * same UTC minute, a minute or so after the server is up: the server's start-up sweep queues
 * them, and the figures start at the minute.
 *
 * - throughput: pushes the stand-in accepted per second, from the first to the last;
 * - delay past due: when the stand-in took each push, minus the minute it was due;
 * - memory: the server's RSS and V8 heap used (its /metrics), before, peak during, and after;
 * - idle: the server's CPU seconds per minute with the reminders queued for tomorrow, against the
 *   same server with no reminder turned on (its scheduler never starts), and the database work per
 *   poll (SQLite: claim statements, counted in this process on the same queue code; PostgreSQL:
 *   transactions the instance commits, from pg_stat_database).
 *
 * Run: npm run bench -- push [--engine=sqlite|postgres] [--people=10000] [--idle=30] (--quick:
 * 1,000 people, 10 s idle). Rate limits are the production ones: each person gets one push.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import {
  createTestDatabase,
  startPushServiceStandIn,
  type PushServiceStandIn,
} from '@pipit/sync-server/testing';
// Not exported by @pipit/sync-server/testing; imported by path, as the server's own tests do.
import { systemClock } from '../sync-server/src/accounts/clock';
import { jobKey } from '../sync-server/src/reminders/reminders';
import { openScheduler } from '../sync-server/src/scheduler';
import { PollingScheduler } from '../sync-server/src/scheduler/polling-scheduler';
import { createTableBackend } from '../sync-server/src/scheduler/table-backend';
import { openPostgresStorage } from '../sync-server/src/storage/postgres';
import { openSqliteStorage } from '../sync-server/src/storage/sqlite';
import type { JobStore, Storage } from '../sync-server/src/storage/types';
import {
  type ChildPipit,
  PUSH_FIXTURE,
  spawnPipit,
} from '../sync-server/test/support/child-server';
import { seedDueReminders, vapidEnv } from '../sync-server/test/support/due-reminders';
import { percentile, sleep } from '../sync-server/test/support/timing';

const QUICK = process.argv.includes('--quick');
const arg = (name: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const ENGINE = arg('engine') ?? 'sqlite';
if (ENGINE !== 'sqlite' && ENGINE !== 'postgres') {
  throw new Error(`--engine is sqlite or postgres; got ${ENGINE}`);
}
const PEOPLE = Number(arg('people') ?? (QUICK ? 1_000 : 10_000));
const IDLE_S = Number(arg('idle') ?? (QUICK ? 10 : 30));
/** The production poll; figures at another one would not be the scheduler's. */
const POLL_MS = 2_000;
const METRICS_TOKEN = 'bench-push-metrics-token-0123456789';

interface Sample {
  rss: number;
  heap: number;
  cpu: number;
}

async function sampleOf(child: ChildPipit): Promise<Sample> {
  const res = await fetch(`${child.url}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const text = await res.text();
  const value = (name: string) => {
    const line = text.split('\n').find((l) => l.startsWith(`${name} `));
    if (!line) throw new Error(`/metrics has no ${name}`);
    return Number(line.split(' ')[1]);
  };
  return {
    rss: value('process_resident_memory_bytes'),
    heap: value('nodejs_heap_size_used_bytes'),
    cpu: value('process_cpu_seconds_total'),
  };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** Storage for this run, the environment the server opens it with, and how to drop it. */
async function openEngine(): Promise<{
  storage: Storage;
  env: Record<string, string>;
  databaseUrl?: string;
  drop(): Promise<void>;
}> {
  if (ENGINE === 'sqlite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'pipit-bench-push-'));
    return {
      storage: await openSqliteStorage(dir),
      env: { DATA_DIR: dir },
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const database = await createTestDatabase();
  return {
    storage: await openPostgresStorage(database.url),
    env: { DATABASE_URL: database.url },
    databaseUrl: database.url,
    drop: () => database.drop(),
  };
}

async function transactions(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      'SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()',
    );
    return Number(rows[0]!.n);
  } finally {
    await client.end();
  }
}

/**
 * PostgreSQL counts a connection's transactions in pg_stat_database when it flushes its statistics,
 * up to ten seconds after they ran while it is idle: a window opened sooner after busy work counts
 * that work's tail (a 10,000-push batch showed as hundreds of "idle" transactions per poll).
 */
const STATS_SETTLE_MS = 12_000;

/**
 * The server's CPU seconds per minute over IDLE_S seconds, and the database's transactions,
 * once what it did before has settled.
 */
async function idleCost(child: ChildPipit, databaseUrl: string | undefined) {
  await sleep(STATS_SETTLE_MS);
  const before = await sampleOf(child);
  const xactBefore = databaseUrl ? await transactions(databaseUrl) : 0;
  await sleep(IDLE_S * 1000);
  const after = await sampleOf(child);
  const xact = databaseUrl ? (await transactions(databaseUrl)) - xactBefore : NaN;
  return {
    cpuPerMinute: ((after.cpu - before.cpu) * 60) / IDLE_S,
    // The two /metrics reads and this bench's own pg_stat reads are not the server's.
    transactionsPerPoll: xact / (IDLE_S / (POLL_MS / 1000)),
  };
}

/** Claim statements per poll round of the SQLite queue with nothing due, counted on its store. */
async function sqliteStatementsPerPoll(): Promise<number> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pipit-bench-idle-'));
  const storage = await openSqliteStorage(dir);
  let calls = 0;
  const counted = new Proxy(storage.jobs, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls += 1;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  }) as JobStore;
  const scheduler = new PollingScheduler(
    createTableBackend({ jobs: counted, clock: systemClock }),
    { pollIntervalMs: 200 },
  );
  scheduler.work('reminder', async () => {});
  await scheduler.start();
  await scheduler.wake();
  calls = 0;
  const rounds = 20;
  for (let i = 0; i < rounds; i += 1) await scheduler.wake();
  await scheduler.stop();
  await storage.close();
  rmSync(dir, { recursive: true, force: true });
  return calls / rounds;
}

async function main() {
  console.log(
    `Reminders: ${PEOPLE.toLocaleString('en')} people, one reminder each due the same minute, one instance on ${ENGINE}.`,
  );
  const push: PushServiceStandIn = await startPushServiceStandIn();
  const vapid = vapidEnv();
  const engine = await openEngine();
  const env = {
    ...engine.env,
    ...vapid,
    METRICS_TOKEN,
    PIPIT_TEST_PUSH_ORIGIN: push.origin,
    PIPIT_TEST_PUSH_CA: push.certificate,
    PIPIT_TEST_SCHEDULER_POLL_MS: String(POLL_MS),
  };
  const children: ChildPipit[] = [];
  try {
    // Idle with no reminder on: the same server whose scheduler never starts.
    const bare = await spawnPipit(env, PUSH_FIXTURE);
    children.push(bare);
    await sleep(3_000);
    const idleBare = await idleCost(bare, engine.databaseUrl);
    await bare.stop('SIGTERM');

    // The due minute: the first whole minute at least 40 s away, for the seeding and the start.
    const seedStarted = performance.now();
    const placeholder = await seedDueReminders(engine.storage, {
      count: PEOPLE,
      at: Date.now() + 3 * 60 * 60_000,
      vapidPublicKey: vapid.VAPID_PUBLIC_KEY,
      subscribe: () => push.subscribe({ applicationServerKey: vapid.VAPID_PUBLIC_KEY }),
    });
    console.log(`  seeded in ${s(performance.now() - seedStarted)} (straight into storage)`);
    // Queued before the server starts, as reminders turned on long ago are: the figures are the
    // sending's, not the start-up sweep's. The minute leaves time to queue them and start.
    const margin = 60_000 + PEOPLE * (ENGINE === 'postgres' ? 10 : 5);
    const due = Math.ceil((Date.now() + margin) / 60_000) * 60_000;
    await retime(engine.storage, placeholder.appId, due);
    const queue = openScheduler({
      storage: engine.storage,
      config: { databaseUrl: engine.databaseUrl },
    });
    await queue.start();
    const queueStarted = performance.now();
    for (const person of placeholder.people) {
      const key = { ...person.key, occurrence: due };
      await queue.enqueue({ kind: 'reminder', key: jobKey(key), runAt: due, payload: key });
    }
    await queue.stop();
    console.log(`  queued in ${s(performance.now() - queueStarted)}`);

    const child = await spawnPipit(env, PUSH_FIXTURE);
    children.push(child);
    const samples: Sample[] = [await sampleOf(child)];
    const before = samples[0]!;
    const wait = due - Date.now();
    console.log(
      wait > 0
        ? `  due at ${new Date(due).toISOString()}; the server is up ${s(wait)} before`
        : `  the server came up ${s(-wait)} after the minute: the delays include its start`,
    );
    const sampler = setInterval(
      () =>
        void sampleOf(child).then(
          (x) => samples.push(x),
          () => undefined,
        ),
      500,
    );
    const deadline = due + 10 * 60_000;
    while (push.delivered.length < PEOPLE && Date.now() < deadline) await sleep(200);
    clearInterval(sampler);
    await sleep(2_000);
    const after = await sampleOf(child);

    const delivered = push.delivered;
    const delays = delivered.map((d) => d.receivedAt.getTime() - due);
    const first = Math.min(...delivered.map((d) => d.receivedAt.getTime()));
    const last = Math.max(...delivered.map((d) => d.receivedAt.getTime()));
    const distinct = new Set(delivered.map((d) => d.subscriptionId)).size;
    console.log('');
    console.log(
      `  delivered             ${delivered.length} (${distinct} devices, ${push.refused.length} refused)`,
    );
    console.log(
      `  throughput            ${((delivered.length / Math.max(1, last - first)) * 1000).toFixed(0)} pushes/s (first to last: ${s(last - first)})`,
    );
    console.log(
      `  delay past due        p50 ${s(percentile(delays, 50))}   p95 ${s(percentile(delays, 95))}   p99 ${s(percentile(delays, 99))}   max ${s(Math.max(...delays))}`,
    );
    const peak = (k: 'rss' | 'heap') => Math.max(...samples.map((x) => x[k]));
    console.log(
      `  RSS                   before ${mb(before.rss)}   peak ${mb(peak('rss'))}   after ${mb(after.rss)}`,
    );
    console.log(
      `  heap used             before ${mb(before.heap)}   peak ${mb(peak('heap'))}   after ${mb(after.heap)}`,
    );
    console.log(`  server CPU in batch   ${(after.cpu - before.cpu).toFixed(1)} s`);

    // Nothing due now: every reminder's next occurrence is tomorrow's.
    const idle = await idleCost(child, engine.databaseUrl);
    console.log('');
    console.log(`  idle, ${IDLE_S} s each, poll every ${POLL_MS / 1000} s:`);
    console.log(
      `    CPU per minute      ${idle.cpuPerMinute.toFixed(2)} s with ${PEOPLE.toLocaleString('en')} reminders queued for tomorrow; ${idleBare.cpuPerMinute.toFixed(2)} s with none on (scheduler not started)`,
    );
    if (ENGINE === 'postgres') {
      console.log(
        `    transactions/poll   ${idle.transactionsPerPoll.toFixed(1)} (all of the instance's, pg-boss maintenance included); ${idleBare.transactionsPerPoll.toFixed(1)} with none on`,
      );
    } else {
      console.log(
        `    statements/poll     ${(await sqliteStatementsPerPoll()).toFixed(1)} (the claim; pruning once an hour)`,
      );
    }
  } finally {
    await Promise.all(children.map((c) => c.stop('SIGKILL')));
    await engine.storage.close();
    await engine.drop();
    await push.close();
  }
}

/** Publishes the app again with its reminder at the UTC minute of `due`. */
async function retime(storage: Storage, appId: string, due: number) {
  const app = await storage.apps.get(appId);
  const version = await storage.publishing.version(appId, app!.publishedVersion!);
  const definition = JSON.parse(version!.definitionJson) as {
    reminders: Array<{ schedule: { time: string } }>;
  };
  definition.reminders[0]!.schedule.time = new Date(due).toISOString().slice(11, 16);
  await storage.publishing.publish({
    appId,
    definitionJson: JSON.stringify(definition),
    listing: { title: version!.title, description: '', icon: null, tags: [] },
    publisherId: app!.ownerId,
    publishedAt: Date.now(),
    visibility: 'public',
  });
}

await main();

import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { launchCluster } from './launch';

/*
 * `npm run cluster [-- --instances N --port P]`: N Pipit instances (3 by default) on one PostgreSQL
 * and one Redis, behind HAProxy on http://localhost:8080 (docs/scaling.md). Ctrl-C stops them all,
 * each storing what it holds first.
 */

const { values } = parseArgs({
  options: {
    instances: { type: 'string', default: '3' },
    port: { type: 'string', default: process.env.PORT ?? '8080' },
  },
});
const instances = Number(values.instances);
const port = Number(values.port);
if (!Number.isInteger(instances) || instances < 1 || instances > 32) {
  console.error('--instances: give a number from 1 to 32.');
  process.exit(2);
}
if (!Number.isInteger(port) || port < 1 || port > 65_535) {
  console.error('--port: give a port from 1 to 65535.');
  process.exit(2);
}
const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/pipit';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const workDir = path.resolve(process.env.DATA_DIR ?? 'data', 'cluster');

/** The database named in DATABASE_URL, created when the server has none of that name. */
async function ensureDatabase(url: string) {
  const name = new URL(url).pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  try {
    await client.connect();
  } catch (error) {
    console.error(
      `PostgreSQL is not reachable at ${admin.host} (${String(error)}). Start it, or set DATABASE_URL.`,
    );
    process.exit(1);
  }
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
}

await ensureDatabase(databaseUrl);
const width = Math.max('haproxy'.length, `pipit-${instances}`.length);
console.log(
  `Starting ${instances} instances on ${new URL(databaseUrl).host} and ${new URL(redisUrl).host}…`,
);
const cluster = await launchCluster({
  instances,
  port,
  workDir,
  databaseUrl,
  redisUrl,
  env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'info' },
  onLine: (source, line) => console.log(`${source.padEnd(width)} | ${line}`),
}).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
console.log(
  `\nPipit is running at http://localhost:${cluster.port}: ${instances} instances behind HAProxy` +
    ` (${cluster.instances.map((i) => `${i.name} on ${i.port}`).join(', ')}). Ctrl-C stops them all.\n`,
);
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log('Stopping every instance (each stores what it holds first)…');
    void cluster.stop().then(() => process.exit(0));
  });
}

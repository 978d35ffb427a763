import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** Debian's HAProxy (`apt-get install haproxy`); `npm run cluster` and `npm test` install it. */
export const HAPROXY = process.env.HAPROXY_PATH ?? '/usr/sbin/haproxy';

export interface ClusterPlan {
  /** How many Pipit instances. */
  instances: number;
  /** The load balancer's port: the one address people use. 0: a free one. */
  port: number;
  /** Where HAProxy's configuration and each instance's data directory go. */
  workDir: string;
  /** PostgreSQL and Redis, shared by every instance. */
  databaseUrl: string;
  redisUrl: string;
  /** Environment for every instance (REDIS_PREFIX, PUBLIC_ORIGIN, LOG_LEVEL, …). */
  env?: Record<string, string>;
  /** One instance's own environment on top (a test routes one instance through a proxy). */
  instanceEnv?: (index: number) => Record<string, string>;
  /** Each line an instance or HAProxy writes, with its name. */
  onLine?: (source: string, line: string) => void;
  /** The entry each instance runs (the production one, src/main.ts, unless a test gives its own). */
  entry?: string;
}

export interface ClusterInstance {
  readonly name: string;
  readonly port: number;
  /** http://127.0.0.1:{port}, past the load balancer. */
  readonly url: string;
  /** The running process (undefined while stopped). */
  readonly child: ChildProcess | undefined;
  /** Starts it (again) and resolves once `/api/ready` says so. */
  start(): Promise<void>;
  /** Sends `signal` and resolves with the exit code once the process is gone. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface RunningCluster {
  /** http://127.0.0.1:{port}: the load balancer. */
  readonly url: string;
  readonly port: number;
  readonly instances: ClusterInstance[];
  /** Stops HAProxy and every instance (SIGTERM: each stores what it holds first). */
  stop(): Promise<void>;
}

const ROOT = path.resolve(import.meta.dirname, '../../..');
const ENTRY = path.join('sync-server', 'src', 'main.ts');

/** A free TCP port on 127.0.0.1 (asked of the OS, then released for the process that takes it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * What HAProxy answers while no instance is ready (docs/scaling.md#when-no-instance-is-ready): a
 * whole HTTP response, headers and page, in the repository's `deploy/haproxy/`.
 */
export const UNAVAILABLE_PAGE = fileURLToPath(
  new URL('../../../deploy/haproxy/pipit-unavailable.http', import.meta.url),
);

/**
 * HAProxy in front of the instances: HTTP and the sync websocket alike (HAProxy passes an upgrade
 * through and keeps the tunnel), each instance checked every second on `/api/ready` — an instance
 * shutting down or without its database gets no new connections — and the least busy instance
 * taking each new connection.
 */
export function haproxyConfig(frontPort: number, backends: Array<{ name: string; port: number }>) {
  return [
    // No global maxconn: HAProxy takes as many connections as the file-descriptor limit allows.
    'global',
    '',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    // A sync socket lives for hours; pings keep it busy long before this.
    '  timeout tunnel 1h',
    '  timeout http-keep-alive 5s',
    // Pipit reads the client's address from the last X-Forwarded-For entry (TRUST_PROXY=true).
    '  option forwardfor',
    // A connection to an instance that just died goes to another one.
    '  retries 3',
    '  option redispatch',
    // No instance ready (the database down takes them all out): Pipit's own page, not HAProxy's.
    `  errorfile 503 ${UNAVAILABLE_PAGE}`,
    '',
    'frontend pipit',
    `  bind 127.0.0.1:${frontPort}`,
    '  default_backend instances',
    '',
    'backend instances',
    '  balance leastconn',
    '  option httpchk',
    '  http-check send meth GET uri /api/ready ver HTTP/1.1 hdr Host localhost',
    '  http-check expect status 200',
    // An instance marked down keeps its open sockets (one without its database still holds its
    // clients' edits until storage is back); one that stops closes them itself, one that dies
    // takes them with it.
    '  default-server inter 1s fastinter 500ms fall 2 rise 1',
    ...backends.map(({ name, port }) => `  server ${name} 127.0.0.1:${port} check`),
    '',
  ].join('\n');
}

async function waitUntilReady(url: string, exited: () => boolean, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exited()) throw new Error(`${url} exited before it was ready`);
    try {
      const response = await fetch(`${url}/api/ready`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} was not ready within ${timeoutMs / 1000} s`);
}

/** Reads a process's output line by line (always: a pipe nobody reads would stall it). */
function follow(child: ChildProcess, source: string, onLine: ClusterPlan['onLine']) {
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    if (onLine) createInterface({ input: stream }).on('line', (line) => onLine(source, line));
    else stream.resume();
  }
}

/**
 * Starts `plan.instances` Pipit processes (the production entry, configured only through their
 * environment) on one PostgreSQL and one Redis, and HAProxy in front of them (docs/scaling.md).
 * The first instance starts alone (it applies the migrations), the others together.
 */
export async function launchCluster(plan: ClusterPlan): Promise<RunningCluster> {
  if (!existsSync(HAPROXY)) {
    throw new Error(
      `HAProxy is missing at ${HAPROXY}: apt-get install haproxy (or set HAPROXY_PATH).`,
    );
  }
  mkdirSync(plan.workDir, { recursive: true });
  const frontPort = plan.port === 0 ? await freePort() : plan.port;
  const url = `http://127.0.0.1:${frontPort}`;

  const instances: ClusterInstance[] = [];
  for (let i = 0; i < plan.instances; i++) {
    const name = `pipit-${i + 1}`;
    const port = await freePort();
    let child: ChildProcess | undefined;
    let exit: Promise<number | null> = Promise.resolve(null);
    const dataDir = path.join(plan.workDir, name);
    mkdirSync(dataDir, { recursive: true });
    instances.push({
      name,
      port,
      url: `http://127.0.0.1:${port}`,
      get child() {
        return child;
      },
      async start() {
        const started = spawn(process.execPath, ['--import', 'tsx', plan.entry ?? ENTRY], {
          cwd: ROOT,
          env: {
            ...process.env,
            PORT: String(port),
            HOST: '127.0.0.1',
            DATA_DIR: dataDir,
            DATABASE_URL: plan.databaseUrl,
            REDIS_URL: plan.redisUrl,
            INSTANCE_NAME: name,
            TRUST_PROXY: 'true',
            PUBLIC_ORIGIN: `http://localhost:${frontPort}`,
            ...plan.env,
            ...plan.instanceEnv?.(i),
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        child = started;
        let gone = false;
        exit = new Promise((resolve) =>
          started.once('exit', (code) => {
            gone = true;
            if (child === started) child = undefined;
            resolve(code);
          }),
        );
        follow(started, name, plan.onLine);
        await waitUntilReady(`http://127.0.0.1:${port}`, () => gone);
      },
      async stop(signal = 'SIGTERM') {
        if (child && child.exitCode === null && child.signalCode === null) child.kill(signal);
        return exit;
      },
    });
  }

  const config = path.join(plan.workDir, 'haproxy.cfg');
  writeFileSync(config, haproxyConfig(frontPort, instances));
  try {
    await instances[0]!.start();
    await Promise.all(instances.slice(1).map((instance) => instance.start()));
  } catch (error) {
    await Promise.all(instances.map((instance) => instance.stop('SIGKILL')));
    throw error;
  }
  const haproxy = spawn(HAPROXY, ['-f', config, '-db'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const haproxyExit = new Promise<void>((resolve) => haproxy.once('exit', () => resolve()));
  follow(haproxy, 'haproxy', plan.onLine);
  await waitUntilReady(url, () => haproxy.exitCode !== null);

  return {
    url,
    port: frontPort,
    instances,
    async stop() {
      haproxy.kill('SIGTERM');
      await Promise.all([haproxyExit, ...instances.map((instance) => instance.stop('SIGTERM'))]);
    },
  };
}

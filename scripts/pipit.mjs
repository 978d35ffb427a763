#!/usr/bin/env node
// The one entry behind `npm start`, `npm test`, `npm run dev` and the other scripts. It installs what
// is missing (a pinned pnpm through npx, the workspace's dependencies, Debian's Chromium for browser
// tests), builds the client when its sources changed, then does the job. Only Node built-ins are used
// here: nothing else is installed yet when it starts.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BUILD_STAMP_NAME, hashBuildInputs } from './build-inputs.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const PNPM = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).packageManager;
const CLIENT_OUT = path.join(ROOT, 'dist/client');
const BUILD_STAMP = path.join(CLIENT_OUT, BUILD_STAMP_NAME);
const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const HAPROXY = process.env.HAPROXY_PATH ?? '/usr/sbin/haproxy';
const TS_PROJECTS = [
  'tsconfig.json',
  'packages/tsconfig.json',
  'client/tsconfig.json',
  'client/tsconfig.sw.json',
  'sync-server/tsconfig.json',
  'e2e/tsconfig.json',
  'bench/tsconfig.json',
];

const log = (message) => console.log(`\x1b[2m[pipit]\x1b[0m ${message}`);

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function runOrExit(command, args, options) {
  const status = run(command, args, options);
  if (status !== 0) process.exit(status);
}

const bin = (name) => path.join(ROOT, 'node_modules/.bin', name);

/** pnpm keeps a copy of the lockfile it installed; equal copies mean nothing is missing. */
function ensureInstalled() {
  const installed = path.join(ROOT, 'node_modules/.pnpm/lock.yaml');
  const lockfile = path.join(ROOT, 'pnpm-lock.yaml');
  if (existsSync(installed) && readFileSync(installed, 'utf8') === readFileSync(lockfile, 'utf8')) {
    return;
  }
  log(
    `installing dependencies with ${PNPM} (the first time compiles the SQLite driver: a minute or two)`,
  );
  runOrExit('npx', ['--yes', PNPM, 'install', '--frozen-lockfile'], {
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
}

const hashInputs = () => hashBuildInputs(ROOT);

function build() {
  log('building the client');
  // The installed app on its own, then the site beside it and the service worker (vite.config.ts).
  runOrExit(bin('vite'), ['build', '--mode', 'installed-app', '--logLevel', 'warn']);
  runOrExit(bin('vite'), ['build', '--logLevel', 'warn']);
  // The public pages' renderer, then the pages themselves (docs/performance.md).
  runOrExit(bin('vite'), ['build', '--ssr', '--logLevel', 'warn']);
  runOrExit(process.execPath, [path.join(ROOT, 'scripts/prerender.mjs')]);
  writeFileSync(BUILD_STAMP, hashInputs());
}

/** Builds the client unless the build in dist/ was made from exactly the current sources. */
function ensureBuilt() {
  const current = hashInputs();
  if (existsSync(BUILD_STAMP) && readFileSync(BUILD_STAMP, 'utf8') === current) return;
  build();
}

/** The benches that measure in Chromium (bench/index.ts runs them all). */
const BROWSER_BENCHES = new Set(['index', 'editor', 'history', 'human-check', 'pwa', 'records']);

/** Browser tests drive Debian's Chromium; install it when it is missing and this user may. */
function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  const isRoot = process.getuid?.() === 0;
  if (isRoot && existsSync('/usr/bin/apt-get')) {
    log('installing Chromium from Debian (browser tests need it; about a minute)');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    if (run('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { env }) !== 0) {
      run('apt-get', ['update'], { env });
      runOrExit('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { env });
    }
    return;
  }
  console.error(
    `Chromium is missing at ${CHROMIUM} and cannot be installed from here.\n` +
      'Install it (Debian: sudo apt-get install -y chromium) or set CHROME_PATH, then run npm test again.',
  );
  process.exit(1);
}

/** Several instances need a load balancer: Debian's HAProxy, installed when missing and allowed. */
function ensureHaproxy() {
  if (existsSync(HAPROXY)) return;
  const isRoot = process.getuid?.() === 0;
  if (isRoot && existsSync('/usr/bin/apt-get')) {
    log('installing HAProxy from Debian (the cluster and its tests need it; a few seconds)');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    if (run('apt-get', ['install', '-y', '--no-install-recommends', 'haproxy'], { env }) !== 0) {
      run('apt-get', ['update'], { env });
      runOrExit('apt-get', ['install', '-y', '--no-install-recommends', 'haproxy'], { env });
    }
    return;
  }
  console.error(
    `HAProxy is missing at ${HAPROXY} and cannot be installed from here.\n` +
      'Install it (Debian: sudo apt-get install -y haproxy) or set HAPROXY_PATH, then run this again.',
  );
  process.exit(1);
}

/** Runs TypeScript source in this process (the server ships as source, like the packages). */
async function importTs(file) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(path.join(ROOT, file)).href);
}

function vitest(args) {
  return run(process.execPath, [path.join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', ...args]);
}

/** Runs a command with its output kept, to be printed in one piece when it ends. */
function runKept(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output: Buffer.concat(output) }));
  });
}

/**
 * Format, lint and typecheck. Each tool works on one core, so they run in two lanes at once: format
 * then lint, and the type checks one project after another (on two cores about half the time of
 * one after another). Each step's output is printed whole when it ends; the first failure of a lane
 * ends that lane, and the checks fail when either lane did.
 */
async function staticChecks() {
  const lane = async (steps) => {
    for (const [name, command, args] of steps) {
      const { code, output } = await runKept(command, args);
      log(`${name}: ${code === 0 ? 'passed' : 'failed'}`);
      process.stdout.write(output);
      if (code !== 0) return code;
    }
    return 0;
  };
  const codes = await Promise.all([
    lane([
      ['format', bin('prettier'), ['--check', '.', '--log-level', 'warn']],
      ['lint', bin('eslint'), ['.', '--max-warnings', '0']],
    ]),
    lane(TS_PROJECTS.map((project) => [`typecheck ${project}`, bin('tsc'), ['-p', project]])),
  ]);
  const failed = codes.find((code) => code !== 0);
  if (failed !== undefined) process.exit(failed);
}

const [command = 'start', ...args] = process.argv.slice(2);

switch (command) {
  case 'start':
    ensureInstalled();
    ensureBuilt();
    await importTs('sync-server/src/main.ts');
    break;
  case 'serve':
    // Containers and service managers (docs/deployment.md): what is installed and built, never
    // installing or building at start.
    if (!existsSync(path.join(ROOT, 'dist/client/index.html'))) {
      console.error('Pipit is not built here: run `npm run build` first, then start it again.');
      process.exit(1);
    }
    await importTs('sync-server/src/main.ts');
    break;
  case 'dev':
    ensureInstalled();
    await importTs('sync-server/src/dev.ts');
    break;
  case 'build':
    ensureInstalled();
    build();
    break;
  case 'test':
    ensureInstalled();
    ensureChromium();
    ensureHaproxy();
    ensureBuilt();
    process.exit(vitest(args));
    break;
  case 'check':
    ensureInstalled();
    await staticChecks();
    ensureChromium();
    ensureHaproxy();
    ensureBuilt();
    process.exit(vitest(args));
    break;
  case 'check:static':
    ensureInstalled();
    await staticChecks();
    break;
  case 'lint':
    ensureInstalled();
    runOrExit(bin('eslint'), ['.', '--max-warnings', '0', ...args]);
    break;
  case 'format':
    ensureInstalled();
    runOrExit(bin('prettier'), ['--write', '.', '--log-level', 'warn']);
    break;
  case 'typecheck':
    ensureInstalled();
    for (const project of TS_PROJECTS) runOrExit(bin('tsc'), ['-p', project]);
    break;
  case 'cluster':
    ensureInstalled();
    ensureBuilt();
    ensureHaproxy();
    // The entry reads its own options: `cluster-main.ts --instances 3`.
    process.argv.splice(2, 1);
    await importTs('sync-server/src/cluster/cluster-main.ts');
    break;
  case 'operator':
    ensureInstalled();
    // The entry reads its arguments as if it were run itself: `operator-main.ts add NAME`.
    process.argv.splice(2, 1);
    await importTs('sync-server/src/operator-main.ts');
    break;
  case 'backup':
  case 'restore':
    ensureInstalled();
    await importTs('sync-server/src/backup/backup-main.ts');
    break;
  case 'bench':
    ensureInstalled();
    // The browser's figures drive Debian's Chromium, as the browser tests do.
    if (BROWSER_BENCHES.has(args[0] ?? 'index')) ensureChromium();
    await importTs(`bench/${args[0] ?? 'index'}.ts`);
    break;
  case 'fuzz': {
    ensureInstalled();
    // `npm run fuzz -- --runs 100000 --seed 42`: the fuzz suites, longer, through vitest; one of
    // them with `--suite api` or `--suite sync`, one engine with `--engine sqlite` or `postgres`;
    // the sync suite stops after `--seconds S` with the frames sent by then; `--seed S --path P`
    // replays one failing case.
    const option = (name) => {
      const at = args.indexOf(`--${name}`);
      return at >= 0 ? args[at + 1] : undefined;
    };
    process.env.FUZZ_RUNS = option('runs') ?? '10000';
    if (option('seed') !== undefined) process.env.FUZZ_SEED = option('seed');
    if (option('seconds') !== undefined) process.env.FUZZ_SECONDS = option('seconds');
    // `--path P` with the seed replays the one failing case fast-check printed (its "path").
    if (option('path') !== undefined) process.env.FUZZ_PATH = option('path');
    process.env.FUZZ_TIMEOUT_MS = String(24 * 60 * 60 * 1000);
    const suite = option('suite');
    const engine = option('engine');
    process.exit(
      vitest([
        '--project',
        'server',
        suite ? `sync-server/test/faults/fuzz-${suite}.test.ts` : 'sync-server/test/faults/fuzz-',
        ...(engine ? ['-t', `(${engine})`] : []),
      ]),
    );
    break;
  }
  case 'docs':
    ensureInstalled();
    await importTs('scripts/docs.ts');
    break;
  default:
    console.error(
      `Unknown command "${command}". Use start, dev, build, test, check, lint, format, typecheck, bench, fuzz, docs, cluster or operator.`,
    );
    process.exit(2);
}

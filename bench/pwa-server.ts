/**
 * The production server for the PWA benchmark, as a separate process (src/main.ts, configured only
 * through its environment) so Lighthouse and the browser driving in this process never slow its
 * answers; and the seed data the measured pages show: a person with published public apps.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { APP_TEMPLATES, type AppDefinition, writeDefinition } from '@pipit/app-definition';
import { ApiClient, errorCode } from '@pipit/sync-server/testing';
// Not re-exported by @pipit/sync-server/testing; imported by path, as the server's own tests do.
import { acknowledged, connectProvider } from '../sync-server/test/support/provider';
import { sleep } from '../sync-server/test/support/timing';

const ROOT = path.resolve(import.meta.dirname, '..');
const START_TIMEOUT_MS = 30_000;
const MAIL_TIMEOUT_MS = 10_000;
/** The templates published, in order; the first is the app the PWA figures are about. */
const PUBLISHED_TEMPLATES = ['habit-tracker', 'reading-list', 'recipe-book'];

type LogLine = { msg?: string; [key: string]: unknown };

export interface BenchServer {
  /** http://127.0.0.1:{port} */
  url: string;
  /** Stops the process (SIGTERM: a graceful shutdown) and deletes its data directory. */
  stop(): Promise<void>;
  lines: LogLine[];
  /** Null while the server runs; once it has exited, how (exit code and the end of its stderr). */
  exitReport(): string | null;
}

/** `node --import tsx sync-server/src/main.ts` on a free port, SQLite in a temporary DATA_DIR. */
export async function startServer(clientDir: string): Promise<BenchServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pipit-bench-pwa-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    CLIENT_DIR: clientDir,
    LOG_LEVEL: 'info',
  };
  // Embedded SQLite and the mail outbox, whatever this shell has set.
  for (const name of ['DATABASE_URL', 'SMTP_URL', 'PUBLIC_ORIGIN', 'TRUST_PROXY']) delete env[name];
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', path.join('sync-server', 'src', 'main.ts')],
    { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  let exitReport: string | null = null;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exitReport = `exited with ${code ?? signal}; stderr: ${stderr.slice(-1500) || '(empty)'}`;
      resolve();
    }),
  );
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const lines: LogLine[] = [];
  const cleanUp = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the server did not start in ${START_TIMEOUT_MS} ms:\n${stderr}`)),
        START_TIMEOUT_MS,
      );
      void exited.then(() => reject(new Error(`the server exited early:\n${stderr}`)));
      createInterface({ input: child.stdout! }).on('line', (text) => {
        let line: LogLine;
        try {
          line = JSON.parse(text) as LogLine;
        } catch {
          return;
        }
        lines.push(line);
        if (typeof line.url === 'string') {
          clearTimeout(timer);
          resolve(line.url.replace('localhost', '127.0.0.1'));
        }
      });
    });
    return { url, lines, stop: cleanUp, exitReport: () => exitReport };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}

/** 26 characters of lowercase base32, like @pipit/protocol's createId (app ids need it). */
function newId(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  return [...randomBytes(26)].map((byte) => alphabet[byte & 31]).join('');
}

/** The link of the email to `to` that the server wrote to its outbox (and logged). */
async function emailedLink(server: BenchServer, to: string, pathname: string): Promise<URL> {
  const deadline = Date.now() + MAIL_TIMEOUT_MS;
  while (Date.now() < deadline) {
    for (const line of server.lines) {
      if (line.to !== to || !Array.isArray(line.links)) continue;
      for (const link of line.links as unknown[]) {
        if (typeof link === 'string' && new URL(link).pathname === pathname) return new URL(link);
      }
    }
    await sleep(50);
  }
  throw new Error(`no email to ${to} with a ${pathname} link was logged`);
}

function expectStatus(what: string, response: { status: number; body: unknown }, status: number) {
  if (response.status !== status) {
    throw new Error(`${what}: ${response.status} ${JSON.stringify(response.body)}`);
  }
}

export interface SeededApp {
  id: string;
  title: string;
  /** The first screen's title: what the PWA shows first. */
  firstScreenTitle: string;
  /** Null when published; otherwise why not (the app then exists only as a draft). */
  publishError: string | null;
}

export interface Seed {
  username: string;
  apps: SeededApp[];
}

/** Writes the definition into the app's document through the websocket, as the editor does. */
async function writeAppDocument(server: BenchServer, api: ApiClient, id: string, d: AppDefinition) {
  const opened = connectProvider({ url: server.url, name: `app/${id}`, cookie: api.cookie });
  try {
    if (!(await opened.ready)) throw new Error(`the server refused the document app/${id}`);
    writeDefinition(opened.doc, d);
    await acknowledged(opened.provider);
  } finally {
    opened.destroy();
    opened.doc.destroy();
  }
}

/**
 * Signs a person up through the real API (human check solved, email confirmed through the emailed
 * link), then creates and publishes one public app per template as the editor would: register
 * (`POST /api/apps`), write the definition into `app/{id}`, `POST /api/apps/{id}/versions`.
 */
export async function seed(server: BenchServer): Promise<Seed> {
  const username = `bench_${newId().slice(0, 6)}`;
  const email = `${username}@example.org`;
  const api = new ApiClient(server.url);
  const signup = await api.post(
    '/api/auth/signup',
    { username, email, password: 'a long and unusual benchmark passphrase' },
    true,
  );
  expectStatus('sign-up', signup, 201);
  const token = (await emailedLink(server, email, '/verify-email')).searchParams.get('token');
  expectStatus('email verification', await api.post('/api/auth/verify-email', { token }), 200);

  const apps: SeededApp[] = [];
  for (const templateId of PUBLISHED_TEMPLATES) {
    const template = APP_TEMPLATES.find((t) => t.id === templateId);
    if (!template) throw new Error(`no template "${templateId}" in APP_TEMPLATES`);
    const definition = template.build();
    const id = newId();
    const { title, description, icon } = definition.meta;
    expectStatus(
      `registering ${title}`,
      await api.post('/api/apps', { id, title, description, icon }),
      201,
    );
    await writeAppDocument(server, api, id, definition);
    const published = await api.post(`/api/apps/${id}/versions`, { visibility: 'public' });
    apps.push({
      id,
      title,
      firstScreenTitle: definition.screens[0]?.title ?? '',
      publishError:
        published.status === 201
          ? null
          : `POST /api/apps/{id}/versions answered ${published.status} ${errorCode(published) ?? ''}`.trim(),
    });
  }
  return { username, apps };
}

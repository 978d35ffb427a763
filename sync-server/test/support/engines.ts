import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openPostgresStorage } from '../../src/storage/postgres';
import { openSqliteStorage, SQLITE_FILE_NAME } from '../../src/storage/sqlite';
import type { Storage } from '../../src/storage/types';
import { createTestDatabase } from './postgres';
import { startTestSmtp, type TestSmtp } from './smtp';
import { type RunningPipit, type StartOptions, startPipit } from './start-server';
import { ApiClient } from './api-client';

/** Both storage engines: suites that must hold on each run once per engine. */
export const ENGINES = ['sqlite', 'postgres'] as const;
export type Engine = (typeof ENGINES)[number];

/**
 * An empty database of `engine`: where it is (a SQLite file's path, a PostgreSQL URL), how the
 * server opens it, what a server on it is told (DATABASE_URL), and how to remove it.
 */
export interface EmptyDatabase {
  location: string;
  open(): Promise<Storage>;
  env: Record<string, string>;
  drop(): Promise<void>;
}

export async function emptyDatabase(engine: Engine): Promise<EmptyDatabase> {
  if (engine === 'sqlite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'pipit-engine-'));
    return {
      location: path.join(dir, SQLITE_FILE_NAME),
      open: () => openSqliteStorage(dir),
      env: {},
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const database = await createTestDatabase();
  return {
    location: database.url,
    open: () => openPostgresStorage(database.url),
    // The job scheduler opens its own connections with it.
    env: { DATABASE_URL: database.url },
    drop: () => database.drop(),
  };
}

export async function openEngine(
  engine: Engine,
): Promise<{ storage: Storage; cleanup(): Promise<void>; databaseUrl?: string }> {
  const database = await emptyDatabase(engine);
  return {
    storage: await database.open(),
    cleanup: () => database.drop(),
    ...(database.env.DATABASE_URL ? { databaseUrl: database.env.DATABASE_URL } : {}),
  };
}

/** The password the harness signs everyone up with. */
export const TEST_PASSWORD = 'correct horse battery staple';

export interface AccountsHarness {
  pipit: RunningPipit;
  smtp: TestSmtp;
  /** A fresh browser-like client (its own cookie jar). */
  client(): ApiClient;
  /** Signs a new person up (email `{username}@example.org` unless given); their signed-in client. */
  signup(username: string, email?: string): Promise<ApiClient>;
  /** Signs in on a new client, optionally as a given browser. */
  login(login: string, password?: string, userAgent?: string): Promise<ApiClient>;
  close(): Promise<void>;
}

/**
 * Every test client comes from 127.0.0.1, so suites about other things get roomy rate limits;
 * rate-limits.test.ts runs with docs/product/quotas.md's.
 */
const ROOMY = { limit: 10_000, windowMs: 60_000 };
export const ROOMY_RATE_LIMITS: StartOptions['rateLimits'] = {
  loginPerIp: ROOMY,
  loginFailuresPerAccountAddress: ROOMY,
  loginFailuresPerAccount: ROOMY,
  signupPerIp: ROOMY,
  resetPerEmail: ROOMY,
  resendVerificationPerAccount: ROOMY,
  emailChangePerAccount: ROOMY,
  messagesPerIp: ROOMY,
  passwordCheckPerAccount: ROOMY,
  appEventsPerIp: ROOMY,
  aiRunsPerAccount: ROOMY,
  checkpointsPerAccount: ROOMY,
  suggestionsPerAccount: ROOMY,
  draftsPerAccount: ROOMY,
  spaceInviteMissesPerIp: ROOMY,
  appImagesPerAccount: ROOMY,
  importsPerAccount: ROOMY,
  spacesCreatedPerAccount: ROOMY,
  avatarUploadsPerAccount: ROOMY,
  recordFilesPerAccount: ROOMY,
};

/** Signs a person up on the server at `url` with TEST_PASSWORD; their signed-in client. */
export async function signUp(
  url: string,
  username: string,
  email = `${username}@example.org`,
): Promise<ApiClient> {
  const client = new ApiClient(url);
  const response = await client.post(
    '/api/auth/signup',
    { username, email, password: TEST_PASSWORD },
    true,
  );
  if (response.status !== 201) throw new Error(`sign-up failed: ${JSON.stringify(response.body)}`);
  return client;
}

/** Signs in on a new client at `url`, optionally as a given browser; throws if refused. */
export async function logIn(
  url: string,
  login: string,
  password = TEST_PASSWORD,
  userAgent?: string,
): Promise<ApiClient> {
  const client = new ApiClient(url);
  const response = await client.request('POST', '/api/auth/login', {
    body: { login, password },
    humanCheck: true,
    ...(userAgent ? { headers: { 'User-Agent': userAgent } } : {}),
  });
  if (response.status !== 200) throw new Error(`sign-in failed: ${JSON.stringify(response.body)}`);
  return client;
}

/**
 * The real server on `engine`, sending mail to a real local SMTP server. On `database` when
 * given (closing leaves it for the caller), else on an empty one of its own.
 */
export async function startAccountsServer(
  engine: Engine,
  options: Omit<StartOptions, 'storage'> & { database?: EmptyDatabase } = {},
): Promise<AccountsHarness> {
  const { database: given, ...startOptions } = options;
  const database = given ?? (await emptyDatabase(engine));
  const smtp = await startTestSmtp();
  const pipit = await startPipit({
    rateLimits: ROOMY_RATE_LIMITS,
    ...startOptions,
    storage: await database.open(),
    env: {
      SMTP_URL: smtp.url,
      HUMAN_CHECK_DIFFICULTY: '500',
      ...database.env,
      ...startOptions.env,
    },
  });
  return {
    pipit,
    smtp,
    client: () => new ApiClient(pipit.url),
    signup: (username, email) => signUp(pipit.url, username, email),
    login: (login, password, userAgent) => logIn(pipit.url, login, password, userAgent),
    async close() {
      await pipit.close();
      await smtp.close();
      if (!given) await database.drop();
    },
  };
}

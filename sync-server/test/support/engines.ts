import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openPostgresStorage } from '../../src/storage/postgres';
import { openSqliteStorage } from '../../src/storage/sqlite';
import type { Storage } from '../../src/storage/types';
import { createTestDatabase } from './postgres';
import { startTestSmtp, type TestSmtp } from './smtp';
import { type RunningPipit, type StartOptions, startPipit } from './start-server';
import { ApiClient } from './api-client';

/** Both storage engines: suites that must hold on each run once per engine. */
export const ENGINES = ['sqlite', 'postgres'] as const;
export type Engine = (typeof ENGINES)[number];

export async function openEngine(
  engine: Engine,
): Promise<{ storage: Storage; cleanup(): Promise<void>; databaseUrl?: string }> {
  if (engine === 'sqlite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'pipit-engine-'));
    return {
      storage: await openSqliteStorage(dir),
      cleanup: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const database = await createTestDatabase();
  return {
    storage: await openPostgresStorage(database.url),
    cleanup: () => database.drop(),
    // What DATABASE_URL would be: the job scheduler opens its own connections with it.
    databaseUrl: database.url,
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

/** The real server on `engine`, sending mail to a real local SMTP server. */
export async function startAccountsServer(
  engine: Engine,
  options: Omit<StartOptions, 'storage'> = {},
): Promise<AccountsHarness> {
  const { storage, cleanup, databaseUrl } = await openEngine(engine);
  const smtp = await startTestSmtp();
  const pipit = await startPipit({
    rateLimits: ROOMY_RATE_LIMITS,
    ...options,
    storage,
    env: {
      SMTP_URL: smtp.url,
      HUMAN_CHECK_DIFFICULTY: '500',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...options.env,
    },
  });
  return {
    pipit,
    smtp,
    client: () => new ApiClient(pipit.url),
    signup: (username, email) => signUp(pipit.url, username, email),
    async login(login, password = TEST_PASSWORD, userAgent) {
      const client = new ApiClient(pipit.url);
      const response = await client.request('POST', '/api/auth/login', {
        body: { login, password },
        humanCheck: true,
        ...(userAgent ? { headers: { 'User-Agent': userAgent } } : {}),
      });
      if (response.status !== 200)
        throw new Error(`sign-in failed: ${JSON.stringify(response.body)}`);
      return client;
    },
    async close() {
      await pipit.close();
      await smtp.close();
      await cleanup();
    },
  };
}

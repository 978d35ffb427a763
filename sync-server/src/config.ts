import path from 'node:path';
import { z } from 'zod';

/**
 * Every setting comes from the environment (README: Configuration). Parsed once at start-up; a bad
 * value stops the server with a message naming the variable.
 */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(8080),
  HOST: z.string().min(1).optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'Use a postgres:// or postgresql:// URL.')
    .optional(),
  PUBLIC_ORIGIN: z.url({ protocol: /^https?$/ }).optional(),
  CLIENT_DIR: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
  SMTP_URL: z
    .string()
    .regex(
      /^smtps?:\/\//,
      'Use an smtp:// or smtps:// URL, e.g. smtps://user:pass@mail.example.org',
    )
    .optional(),
  MAIL_FROM: z.string().min(3).default('Pipit <no-reply@localhost>'),
  HUMAN_CHECK_DIFFICULTY: z.coerce.number().int().min(10).max(10_000_000).default(5_000),
  TRUST_PROXY: z.enum(['true', 'false', '1', '0']).default('false'),
  USERNAME_HOLD_DAYS: z.coerce.number().min(0).max(3650).default(30),
});

export interface Config {
  port: number;
  /** Unset: every interface, IPv6 and IPv4 (Node's default). */
  host: string | undefined;
  dataDir: string;
  /** PostgreSQL when set; otherwise SQLite under `dataDir`. */
  databaseUrl: string | undefined;
  /**
   * Origins allowed to make state-changing requests and open websockets, besides the request's own
   * host. Behind a proxy, set PUBLIC_ORIGIN to the address people use.
   */
  publicOrigin: string | undefined;
  /** The built client (`vite build` output). */
  clientDir: string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  shutdownTimeoutMs: number;
  /** Mail goes through this relay; unset, messages are written to DATA_DIR/outbox and logged. */
  smtpUrl: string | undefined;
  mailFrom: string;
  /** The human check's proof-of-work size (the largest counter a solver may have to reach). */
  humanCheckDifficulty: number;
  /** Behind a reverse proxy: take the client address from X-Forwarded-For (its last entry). */
  trustProxy: boolean;
  /** How long a deleted account's username stays unavailable (SPEC §6). */
  usernameHoldDays: number;
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  // `PORT=` (set but empty) means unset, not 0.
  const given = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = envSchema.safeParse(given);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(cwd, e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    publicOrigin: e.PUBLIC_ORIGIN ? new URL(e.PUBLIC_ORIGIN).origin : undefined,
    clientDir: path.resolve(cwd, e.CLIENT_DIR ?? 'dist/client'),
    logLevel: e.LOG_LEVEL,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    humanCheckDifficulty: e.HUMAN_CHECK_DIFFICULTY,
    trustProxy: e.TRUST_PROXY === 'true' || e.TRUST_PROXY === '1',
    usernameHoldDays: e.USERNAME_HOLD_DAYS,
  };
}

import { createECDH } from 'node:crypto';
import { hostname } from 'node:os';
import path from 'node:path';
import cronParser from 'cron-parser';
import { z } from 'zod';
import { type Dsn, parseDsn } from './dsn';

const dsnSchema = z.string().transform((text, ctx): Dsn => {
  const dsn = parseDsn(text);
  if (!dsn) {
    ctx.addIssue({
      code: 'custom',
      message: 'Use a DSN such as https://publickey@errors.example.org/42.',
    });
    return z.NEVER;
  }
  return dsn;
});
/** A key as `web-push`'s generateVAPIDKeys() gives it: base64url of `bytes` bytes. */
function base64urlKey(bytes: number, what: string) {
  const message = `Use ${what}, base64url as web-push's generateVAPIDKeys() gives it (npx web-push generate-vapid-keys).`;
  return z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, message)
    .refine((text) => Buffer.from(text, 'base64url').length === bytes, message);
}
/** A setting that is on or off: `true`/`1` or `false`/`0`. */
const flagSchema = z.enum(['true', 'false', '1', '0']);
const isOn = (flag: z.infer<typeof flagSchema>) => flag === 'true' || flag === '1';
/** An organisation or region as the `/monitoring` query carries it. */
const slugSchema = z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'Use letters, digits, - _ or .');

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
  TRUST_PROXY: flagSchema.default('false'),
  USERNAME_HOLD_DAYS: z.coerce.number().min(0).max(3650).default(30),
  METRICS_TOKEN: z
    .string()
    .regex(
      /^[\x21-\x7e]{16,}$/,
      'Use at least 16 printable characters, e.g. `openssl rand -hex 32`.',
    )
    .optional(),
  MONITORING_DSN: dsnSchema.optional(),
  MONITORING_ORG: slugSchema.default('pipit'),
  MONITORING_REGION: slugSchema.optional(),
  MONITORING_UPSTREAM_DSN: dsnSchema.optional(),
  MONITORING_RETENTION_DAYS: z.coerce.number().min(1).max(3650).default(30),
  MONITORING_ENVIRONMENT: slugSchema.default('production'),
  HEAP_BUDGET_MB: z.coerce.number().int().min(64).max(1_048_576).optional(),
  // Operators were once listed here by username, and a name can change hands: refuse the setting
  // rather than read it, so no server keeps trusting names after an upgrade.
  OPERATORS: z
    .never({
      error:
        'Operators are accounts now, not names: remove OPERATORS and run `npm run operator -- add USERNAME` for each one (their email must be confirmed).',
    })
    .optional(),
  MONITORING_DAILY_BYTES_PER_ADDRESS: z.coerce
    .number()
    .int()
    .min(16 * 1024)
    .default(2 * 1024 * 1024),
  MONITORING_MAX_EVENTS: z.coerce.number().int().min(1).max(10_000_000).default(10_000),
  MONITORING_MAX_GROUPS: z.coerce.number().int().min(1).max(1_000_000).default(1_000),
  AI_BASE_URL: z
    .url({
      protocol: /^https?$/,
      error: 'Use the http(s) address of an OpenAI-compatible API, e.g. http://localhost:11434/v1.',
    })
    .optional(),
  AI_API_KEY: z.string().min(1).optional(),
  AI_MODEL: z.string().min(1).max(200).optional(),
  AI_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(60_000),
  AI_DAILY_RUNS: z.coerce.number().int().min(0).max(1_000_000).default(50),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'Use a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379.')
    .optional(),
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'Use letters, digits, - _ . or :')
    .default('pipit'),
  INSTANCE_NAME: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'Use letters, digits, - _ or .')
    .optional(),
  BACKUP_DIR: z.string().min(1).optional(),
  BACKUP_SCHEDULE: z
    .string()
    .refine((text) => {
      try {
        cronParser.parseExpression(text, { tz: 'UTC' });
        return text.trim().split(/\s+/).length === 5;
      } catch {
        return false;
      }
    }, 'Use a cron expression of five fields, in UTC: minute hour day-of-month month day-of-week, e.g. "30 3 * * *" for every day at 03:30.')
    .optional(),
  BACKUP_KEEP: z.coerce.number().int().min(1).max(10_000).default(7),
  BACKUP_DRILL: flagSchema.default('true'),
  VAPID_PUBLIC_KEY: base64urlKey(65, 'an uncompressed P-256 public key').optional(),
  VAPID_PRIVATE_KEY: base64urlKey(32, 'a P-256 private key').optional(),
  VAPID_SUBJECT: z
    .string()
    .regex(
      /^(mailto:[^\s@]+@[^\s@]+|https:\/\/[^\s]+)$/,
      'Use a contact push services can reach you at: mailto:you@example.org or https://example.org.',
    )
    .optional(),
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
  /** How long a username given up (by a rename or a deleted account) stays unavailable. */
  usernameHoldDays: number;
  /** Bearer token for Prometheus at /metrics; unset, /metrics does not exist (404). */
  metricsToken: string | undefined;
  /** Error reporting through `/monitoring` (docs/product/error-reporting.md). */
  monitoring: MonitoringConfig;
  /**
   * Past this heap size the server loads no more documents and says it is busy (unset: three
   * quarters of V8's heap limit, which `--max-old-space-size` sets).
   */
  heapBudgetBytes: number | undefined;
  /** The AI provider (docs/product/ai.md); unset, every AI endpoint answers `ai_not_configured`. */
  ai: AiConfig | undefined;
  /** Runs of AI actions one person may make per UTC day (AI_DAILY_RUNS). */
  aiDailyRuns: number;
  /**
   * Several instances (docs/scaling.md): set, documents' edits and presence, and every decision
   * about a document or person, reach the other instances through this Redis.
   */
  redis: RedisConfig | undefined;
  /** This instance's name in logs and among the others (INSTANCE_NAME; host name and pid). */
  instanceName: string;
  /** Web Push (docs/decisions/0012-web-push-and-scheduler.md#vapid-keys). */
  push: PushConfig;
  /** Backups, by hand and on a schedule (docs/operations.md#backups). */
  backups: BackupConfig;
}

export interface BackupConfig {
  /** Where backups are written: BACKUP_DIR, else DATA_DIR/backups. */
  dir: string;
  /** BACKUP_SCHEDULE, a five-field cron expression in UTC; unset, no backup is made on its own. */
  schedule: string | undefined;
  /** Scheduled backups kept in `dir` (BACKUP_KEEP); older ones are deleted after a new one. */
  keep: number;
  /** Each scheduled backup is restored into a scratch database to prove it (BACKUP_DRILL). */
  drill: boolean;
}

export interface PushConfig {
  /** VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY; unset, a pair is made once and kept in the database. */
  keys: { publicKey: string; privateKey: string } | undefined;
  /**
   * The contact in every VAPID token: VAPID_SUBJECT, else PUBLIC_ORIGIN when it is https, else
   * MAIL_FROM's address as a mailto:.
   */
  subject: string;
}

export interface RedisConfig {
  url: string;
  /** Keys and channels start with this, so several Pipits can share one Redis. */
  prefix: string;
}

/** An OpenAI-compatible Chat Completions API: Ollama, llama.cpp's server, vLLM, OpenAI. */
export interface AiConfig {
  /** e.g. http://localhost:11434/v1 (the client appends /chat/completions). */
  baseUrl: string;
  /** Unset for local servers that need none. Never logged, never sent to a browser. */
  apiKey: string | undefined;
  model: string;
  /** Per request to the provider, streaming included. */
  timeoutMs: number;
}

export interface MonitoringConfig {
  /** The DSN browsers report with; `/monitoring` accepts envelopes for exactly this one. */
  dsn: Dsn;
  /** The tunnel's `o` query parameter. */
  org: string;
  /** The tunnel's `r` query parameter; unset, requests carry none. */
  region: string | undefined;
  /** Where accepted envelopes are forwarded too; the only address reports ever go to. */
  upstream: Dsn | undefined;
  /** Stored reports older than this are pruned. */
  retentionDays: number;
  /** The environment reports are marked with (`production`, `staging`, …). */
  environment: string;
  /**
   * Bytes of reports one address (IPv6: its /64) may have stored per day; past it the tunnel
   * answers 429 until the day's window ends.
   */
  dailyBytesPerAddress: number;
  /** At most this many occurrences and kinds of error are stored; the oldest go first. */
  maxEvents: number;
  maxGroups: number;
}

export class ConfigError extends Error {}

/** With no MONITORING_DSN, reports are kept here and go nowhere else: no setup needed. */
function localDsn(publicOrigin: string | undefined): Dsn {
  const origin = new URL(publicOrigin ?? 'http://localhost');
  return {
    protocol: origin.protocol === 'https:' ? 'https:' : 'http:',
    publicKey: 'pipit',
    host: origin.host.toLowerCase(),
    pathPrefix: '',
    projectId: '1',
  };
}

/** The address in `Name <address>` or a bare address. */
function mailAddress(from: string): string {
  return (/<([^>]+)>/.exec(from)?.[1] ?? from).trim();
}

/** Both keys or neither, the private key the public key's own, and a contact to sign with. */
function pushConfig(e: z.infer<typeof envSchema>): PushConfig {
  const given = (['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY', 'VAPID_SUBJECT'] as const).filter(
    (name) => e[name] !== undefined,
  );
  const keyGiven = e.VAPID_PUBLIC_KEY !== undefined || e.VAPID_PRIVATE_KEY !== undefined;
  if (keyGiven && given.length < 3) {
    const missing = ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY', 'VAPID_SUBJECT'].filter(
      (name) => !given.includes(name as (typeof given)[number]),
    );
    throw new ConfigError(
      `Invalid configuration:\n  ${missing.join(', ')}: set VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT together, or none of the keys (the server then makes a pair and keeps it in the database).`,
    );
  }
  if (e.VAPID_PUBLIC_KEY !== undefined && e.VAPID_PRIVATE_KEY !== undefined) {
    const ecdh = createECDH('prime256v1');
    let derived: string | undefined;
    try {
      ecdh.setPrivateKey(Buffer.from(e.VAPID_PRIVATE_KEY, 'base64url'));
      derived = ecdh.getPublicKey().toString('base64url');
    } catch {
      derived = undefined;
    }
    if (derived !== e.VAPID_PUBLIC_KEY) {
      throw new ConfigError(
        'Invalid configuration:\n  VAPID_PUBLIC_KEY: it is not the public key of VAPID_PRIVATE_KEY; set the two keys of one pair.',
      );
    }
  }
  const origin = e.PUBLIC_ORIGIN ? new URL(e.PUBLIC_ORIGIN) : undefined;
  return {
    keys:
      e.VAPID_PUBLIC_KEY !== undefined && e.VAPID_PRIVATE_KEY !== undefined
        ? { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY }
        : undefined,
    subject:
      e.VAPID_SUBJECT ??
      (origin?.protocol === 'https:' ? origin.origin : `mailto:${mailAddress(e.MAIL_FROM)}`),
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  // `PORT=` (set but empty) means unset, not 0.
  const given = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = envSchema.safeParse(given);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.data;
  if (e.REDIS_URL && !e.DATABASE_URL) {
    throw new ConfigError(
      'Invalid configuration:\n  REDIS_URL: several instances share one PostgreSQL: set DATABASE_URL too (SQLite serves one instance).',
    );
  }
  if (e.AI_BASE_URL && !e.AI_MODEL) {
    throw new ConfigError(
      'Invalid configuration:\n  AI_MODEL: Name the model to use with AI_BASE_URL, e.g. AI_MODEL=llama3.2.',
    );
  }
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
    trustProxy: isOn(e.TRUST_PROXY),
    usernameHoldDays: e.USERNAME_HOLD_DAYS,
    metricsToken: e.METRICS_TOKEN,
    monitoring: {
      dsn: e.MONITORING_DSN ?? localDsn(e.PUBLIC_ORIGIN),
      org: e.MONITORING_ORG,
      region: e.MONITORING_REGION,
      upstream: e.MONITORING_UPSTREAM_DSN,
      retentionDays: e.MONITORING_RETENTION_DAYS,
      environment: e.MONITORING_ENVIRONMENT,
      dailyBytesPerAddress: e.MONITORING_DAILY_BYTES_PER_ADDRESS,
      maxEvents: e.MONITORING_MAX_EVENTS,
      maxGroups: e.MONITORING_MAX_GROUPS,
    },
    heapBudgetBytes: e.HEAP_BUDGET_MB === undefined ? undefined : e.HEAP_BUDGET_MB * 1024 * 1024,
    ai:
      e.AI_BASE_URL && e.AI_MODEL
        ? {
            baseUrl: e.AI_BASE_URL.replace(/\/+$/, ''),
            apiKey: e.AI_API_KEY,
            model: e.AI_MODEL,
            timeoutMs: e.AI_TIMEOUT_MS,
          }
        : undefined,
    aiDailyRuns: e.AI_DAILY_RUNS,
    redis: e.REDIS_URL ? { url: e.REDIS_URL, prefix: e.REDIS_PREFIX } : undefined,
    instanceName: e.INSTANCE_NAME ?? `${hostname()}-${process.pid}`,
    push: pushConfig(e),
    backups: {
      dir: path.resolve(cwd, e.BACKUP_DIR ?? path.join(e.DATA_DIR, 'backups')),
      schedule: e.BACKUP_SCHEDULE?.trim(),
      keep: e.BACKUP_KEEP,
      drill: isOn(e.BACKUP_DRILL),
    },
  };
}

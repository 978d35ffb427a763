import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config';

describe('loadConfig', () => {
  it('defaults to port 8080 and SQLite under ./data', () => {
    const config = loadConfig({}, '/srv/pipit');
    expect(config).toMatchObject({
      port: 8080,
      host: undefined,
      dataDir: path.resolve('/srv/pipit/data'),
      databaseUrl: undefined,
      clientDir: path.resolve('/srv/pipit/dist/client'),
      logLevel: 'info',
    });
  });

  it('treats a variable set to nothing as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '', LOG_LEVEL: '' }, '/srv')).toMatchObject({
      port: 8080,
      databaseUrl: undefined,
      logLevel: 'info',
    });
  });

  it('reads every variable', () => {
    const config = loadConfig(
      {
        PORT: '9000',
        HOST: '127.0.0.1',
        DATA_DIR: '/var/lib/pipit',
        DATABASE_URL: 'postgres://pipit@db:5432/pipit',
        PUBLIC_ORIGIN: 'https://pipit.example.org/',
        CLIENT_DIR: '/opt/pipit/client',
        LOG_LEVEL: 'debug',
        SHUTDOWN_TIMEOUT_MS: '3000',
        SMTP_URL: 'smtps://pipit:secret@mail.example.org:465',
        MAIL_FROM: 'Pipit <hello@example.org>',
        HUMAN_CHECK_DIFFICULTY: '20000',
        TRUST_PROXY: 'true',
        USERNAME_HOLD_DAYS: '7',
        MONITORING_DSN: 'https://5f3c9a@errors.example.org/42',
        MONITORING_ORG: 'acme',
        MONITORING_REGION: 'eu',
        MONITORING_UPSTREAM_DSN: 'https://abc123@o1.ingest.example.com:8443/sentry/7',
        MONITORING_RETENTION_DAYS: '14',
        MONITORING_ENVIRONMENT: 'staging',
        MONITORING_DAILY_BYTES_PER_ADDRESS: '1048576',
        MONITORING_MAX_EVENTS: '500',
        MONITORING_MAX_GROUPS: '50',
        AI_BASE_URL: 'http://localhost:11434/v1/',
        AI_API_KEY: 'sk-local',
        AI_MODEL: 'llama3.2',
        AI_TIMEOUT_MS: '30000',
        AI_DAILY_RUNS: '10',
        REDIS_URL: 'redis://cache.internal:6379',
        REDIS_PREFIX: 'pipit-eu',
        INSTANCE_NAME: 'pipit-2',
        VAPID_PUBLIC_KEY:
          'BMMqf3uxi1MujWJgYXykAetVc0YDkY-skXncmZz7Bz5dLF_NmyGpgAGIg5ZVejTgzgOCbSDOfXNH3qx9sI_sRnw',
        VAPID_PRIVATE_KEY: 'fQi8Bt1x7u4VuhRI-mwus3ofABm13hEWy7pDXAo05PE',
        VAPID_SUBJECT: 'mailto:push@example.org',
        BACKUP_DIR: '/var/backups/pipit',
        BACKUP_SCHEDULE: '0 */6 * * *',
        BACKUP_KEEP: '28',
        BACKUP_DRILL: 'false',
      },
      '/srv',
    );
    expect(config).toEqual({
      port: 9000,
      host: '127.0.0.1',
      dataDir: '/var/lib/pipit',
      databaseUrl: 'postgres://pipit@db:5432/pipit',
      publicOrigin: 'https://pipit.example.org',
      clientDir: '/opt/pipit/client',
      logLevel: 'debug',
      shutdownTimeoutMs: 3000,
      smtpUrl: 'smtps://pipit:secret@mail.example.org:465',
      mailFrom: 'Pipit <hello@example.org>',
      humanCheckDifficulty: 20000,
      trustProxy: true,
      usernameHoldDays: 7,
      monitoring: {
        dsn: {
          protocol: 'https:',
          publicKey: '5f3c9a',
          host: 'errors.example.org',
          pathPrefix: '',
          projectId: '42',
        },
        org: 'acme',
        region: 'eu',
        upstream: {
          protocol: 'https:',
          publicKey: 'abc123',
          host: 'o1.ingest.example.com:8443',
          pathPrefix: '/sentry',
          projectId: '7',
        },
        retentionDays: 14,
        environment: 'staging',
        dailyBytesPerAddress: 1_048_576,
        maxEvents: 500,
        maxGroups: 50,
      },
      ai: {
        baseUrl: 'http://localhost:11434/v1',
        apiKey: 'sk-local',
        model: 'llama3.2',
        timeoutMs: 30_000,
      },
      aiDailyRuns: 10,
      redis: { url: 'redis://cache.internal:6379', prefix: 'pipit-eu' },
      instanceName: 'pipit-2',
      push: {
        keys: {
          publicKey:
            'BMMqf3uxi1MujWJgYXykAetVc0YDkY-skXncmZz7Bz5dLF_NmyGpgAGIg5ZVejTgzgOCbSDOfXNH3qx9sI_sRnw',
          privateKey: 'fQi8Bt1x7u4VuhRI-mwus3ofABm13hEWy7pDXAo05PE',
        },
        subject: 'mailto:push@example.org',
      },
      backups: { dir: '/var/backups/pipit', schedule: '0 */6 * * *', keep: 28, drill: false },
    });
  });

  it('needs PostgreSQL for several instances, and names this one by host and process by default', () => {
    expect(() => loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' }, '/srv')).toThrow(
      /REDIS_URL: several instances share one PostgreSQL/,
    );
    expect(() =>
      loadConfig({ DATABASE_URL: 'postgres://db/p', REDIS_URL: 'http://redis' }, '/srv'),
    ).toThrow(/REDIS_URL: Use a redis:\/\/ or rediss:\/\/ URL/);
    const alone = loadConfig({}, '/srv');
    expect(alone.redis).toBeUndefined();
    expect(alone.instanceName).toMatch(new RegExp(`-${process.pid}$`));
  });

  it('reports errors to itself with no setup: a local DSN, org pipit, no upstream, 30 days', () => {
    expect(loadConfig({}, '/srv')).toMatchObject({
      monitoring: {
        dsn: {
          protocol: 'http:',
          publicKey: 'pipit',
          host: 'localhost',
          pathPrefix: '',
          projectId: '1',
        },
        org: 'pipit',
        region: undefined,
        upstream: undefined,
        retentionDays: 30,
        environment: 'production',
        dailyBytesPerAddress: 2 * 1024 * 1024,
        maxEvents: 10_000,
        maxGroups: 1_000,
      },
    });
    expect(
      loadConfig({ PUBLIC_ORIGIN: 'https://pipit.example.org:8443' }, '/srv').monitoring.dsn,
    ).toEqual({
      protocol: 'https:',
      publicKey: 'pipit',
      host: 'pipit.example.org:8443',
      pathPrefix: '',
      projectId: '1',
    });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ PUBLIC_ORIGIN: 'ftp://x' }, 'PUBLIC_ORIGIN'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ SMTP_URL: 'http://mail' }, 'SMTP_URL'],
    [{ HUMAN_CHECK_DIFFICULTY: '1' }, 'HUMAN_CHECK_DIFFICULTY'],
    [{ MONITORING_DSN: 'https://errors.example.org/42' }, 'MONITORING_DSN'],
    [{ MONITORING_DSN: 'ftp://key@errors.example.org/42' }, 'MONITORING_DSN'],
    [{ MONITORING_UPSTREAM_DSN: 'https://key@errors.example.org/' }, 'MONITORING_UPSTREAM_DSN'],
    [{ MONITORING_ORG: 'a b' }, 'MONITORING_ORG'],
    [{ MONITORING_RETENTION_DAYS: '0' }, 'MONITORING_RETENTION_DAYS'],
    [{ MONITORING_ENVIRONMENT: 'two words' }, 'MONITORING_ENVIRONMENT'],
    [{ MONITORING_DAILY_BYTES_PER_ADDRESS: '1000' }, 'MONITORING_DAILY_BYTES_PER_ADDRESS'],
    [{ MONITORING_MAX_EVENTS: '0' }, 'MONITORING_MAX_EVENTS'],
    [{ MONITORING_MAX_GROUPS: 'many' }, 'MONITORING_MAX_GROUPS'],
    [{ AI_BASE_URL: 'ftp://models.example.org', AI_MODEL: 'x' }, 'AI_BASE_URL'],
    [{ AI_BASE_URL: 'http://localhost:11434/v1' }, 'AI_MODEL'],
    [{ AI_TIMEOUT_MS: '10' }, 'AI_TIMEOUT_MS'],
    [{ AI_DAILY_RUNS: '-1' }, 'AI_DAILY_RUNS'],
  ])('stops with a message naming the variable for %j', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(name));
  });

  it('refuses OPERATORS, which named operators by username, and says what to run instead', () => {
    // A username can be given up and taken by another account: a server that kept reading the
    // setting would hand the inbox to whoever holds the name next.
    expect(() => loadConfig({ OPERATORS: 'opsboss' })).toThrow(ConfigError);
    expect(() => loadConfig({ OPERATORS: 'opsboss' })).toThrow(
      /OPERATORS: .*npm run operator -- add USERNAME/,
    );
    expect(loadConfig({ OPERATORS: '' })).not.toHaveProperty('operators');
  });
});

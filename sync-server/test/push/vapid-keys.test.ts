import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { createId } from '@pipit/protocol';
import webpush from 'web-push';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type PushConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import {
  backoffMs,
  PUSH_RETRY_BASE_MS,
  PUSH_RETRY_MAX_MS,
  retryAfterMs,
} from '../../src/push/backoff';
import { createVapidKeys, VAPID_SECRET_NAME } from '../../src/push/vapid';
import { openPostgresStorage } from '../../src/storage/postgres';
import { openSqliteStorage } from '../../src/storage/sqlite';
import type { Storage } from '../../src/storage/types';
import { insertUser, startPipit } from '../support';
import { ENGINES } from '../support/engines';
import { createTestDatabase } from '../support/postgres';

const SUBJECT = 'mailto:operator@pipit.test';
const generated: PushConfig = { keys: undefined, subject: SUBJECT };

function capture() {
  const lines: Array<{ level: string; msg: string }> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim()) lines.push(JSON.parse(line) as { level: string; msg: string });
      }
      done();
    },
  });
  return { lines, logger: createLogger('info', sink) };
}

/** Two storages on one database: what two instances of the server open. */
async function twoOpenings(
  engine: (typeof ENGINES)[number],
): Promise<{ first: Storage; second: Storage; cleanup(): Promise<void> }> {
  if (engine === 'sqlite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'pipit-vapid-'));
    const first = await openSqliteStorage(dir);
    const second = await openSqliteStorage(dir);
    return {
      first,
      second,
      async cleanup() {
        await first.close();
        await second.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const database = await createTestDatabase();
  const [first, second] = await Promise.all([
    openPostgresStorage(database.url),
    openPostgresStorage(database.url),
  ]);
  return {
    first,
    second,
    async cleanup() {
      await first.close();
      await second.close();
      await database.drop();
    },
  };
}

describe.each(ENGINES)('VAPID keys on %s', (engine) => {
  it('are generated once and shared by every instance on the database, across restarts', async () => {
    const { first, second, cleanup } = await twoOpenings(engine);
    try {
      const { logger } = capture();
      const a = createVapidKeys({ config: generated, storage: first, logger });
      const b = createVapidKeys({ config: generated, storage: second, logger });
      const [fromA, fromB] = await Promise.all([a.get(), b.get()]);
      expect(fromA).toEqual(fromB);
      expect(fromA.subject).toBe(SUBJECT);
      expect(Buffer.from(fromA.publicKey, 'base64url')).toHaveLength(65);
      expect(Buffer.from(fromA.privateKey, 'base64url')).toHaveLength(32);
      // What web-push signs with is a pair: a token it makes verifies with the public key.
      expect(() =>
        webpush.getVapidHeaders(
          'https://push.example.org',
          SUBJECT,
          fromA.publicKey,
          fromA.privateKey,
          'aes128gcm',
        ),
      ).not.toThrow();
      const kept = await first.secrets.getOrCreate(VAPID_SECRET_NAME, () => 'not used');
      expect(JSON.parse(kept)).toEqual({
        publicKey: fromA.publicKey,
        privateKey: fromA.privateKey,
      });
      // A restart reads the same pair.
      const restarted = createVapidKeys({ config: generated, storage: second, logger });
      expect(await restarted.get()).toEqual(fromA);
    } finally {
      await cleanup();
    }
  });

  it('uses the keys from the environment, and deletes subscriptions made with other keys', async () => {
    const { first, cleanup } = await twoOpenings(engine);
    try {
      const old = await createVapidKeys({
        config: generated,
        storage: first,
        logger: capture().logger,
      }).get();
      const user = await insertUser(first);
      const appId = createId();
      await first.apps.insert({
        id: appId,
        ownerId: user.id,
        title: 'P',
        description: '',
        icon: null,
        createdAt: 1,
      });
      const { subscription } = await first.pushSubscriptions.upsert({
        id: createId(),
        userId: user.id,
        appId,
        deviceId: createId(),
        endpoint: `https://push.example.org/${createId()}`,
        p256dh: `B${'a'.repeat(86)}`,
        auth: 'b'.repeat(22),
        vapidPublicKey: old.publicKey,
        createdAt: 1,
      });

      const given = webpush.generateVAPIDKeys();
      const { lines, logger } = capture();
      const keys = createVapidKeys({
        config: { keys: given, subject: 'https://pipit.example.org' },
        storage: first,
        logger,
      });
      expect(await keys.get()).toEqual({ subject: 'https://pipit.example.org', ...given });
      expect(await first.pushSubscriptions.get(subscription.id)).toBeNull();
      expect(lines.find((l) => l.level === 'warn')?.msg).toMatch(/VAPID keys changed/);
      // The generated pair is still kept, untouched, should the environment's be removed.
      const kept = await first.secrets.getOrCreate(VAPID_SECRET_NAME, () => 'not used');
      expect(JSON.parse(kept)).toMatchObject({ publicKey: old.publicKey });
    } finally {
      await cleanup();
    }
  });
});

describe('VAPID keys', () => {
  it('reads again after a failed read instead of keeping the failure', async () => {
    let calls = 0;
    const pair = webpush.generateVAPIDKeys();
    const storage = {
      secrets: {
        getOrCreate: () => {
          calls += 1;
          return calls === 1
            ? Promise.reject(new Error('database unreachable'))
            : Promise.resolve(JSON.stringify(pair));
        },
      },
      pushSubscriptions: { deleteForOtherKeys: () => Promise.resolve(0) },
    } as unknown as Storage;
    const keys = createVapidKeys({ config: generated, storage, logger: capture().logger });
    await expect(keys.get()).rejects.toThrow('database unreachable');
    expect(await keys.get()).toEqual({ subject: SUBJECT, ...pair });
    expect(await keys.get()).toEqual({ subject: SUBJECT, ...pair });
    // Read once more after the failure, then kept.
    expect(calls).toBe(2);
  });

  it('serves the environment’s public key at /api/push/key', async () => {
    const given = webpush.generateVAPIDKeys();
    const pipit = await startPipit({
      env: {
        VAPID_PUBLIC_KEY: given.publicKey,
        VAPID_PRIVATE_KEY: given.privateKey,
        VAPID_SUBJECT: SUBJECT,
      },
    });
    try {
      const answer = await fetch(`${pipit.url}/api/push/key`);
      expect(await answer.json()).toEqual({ publicKey: given.publicKey });
    } finally {
      await pipit.close();
    }
  });
});

describe('VAPID settings', () => {
  const pair = webpush.generateVAPIDKeys();
  const error = (env: Record<string, string>) => {
    try {
      loadConfig(env, '/srv');
    } catch (e) {
      if (e instanceof ConfigError) return e.message;
      throw e;
    }
    throw new Error('expected a ConfigError');
  };

  it('refuses keys given in part, naming what is missing', () => {
    expect(error({ VAPID_PUBLIC_KEY: pair.publicKey })).toMatch(
      /VAPID_PRIVATE_KEY, VAPID_SUBJECT: set VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT together/,
    );
    expect(error({ VAPID_PRIVATE_KEY: pair.privateKey, VAPID_SUBJECT: SUBJECT })).toMatch(
      /^Invalid configuration:\n {2}VAPID_PUBLIC_KEY: set/,
    );
    expect(error({ VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: pair.privateKey })).toMatch(
      /VAPID_SUBJECT: set/,
    );
  });

  it('refuses keys that are not a pair, or not keys', () => {
    const other = webpush.generateVAPIDKeys();
    expect(
      error({
        VAPID_PUBLIC_KEY: pair.publicKey,
        VAPID_PRIVATE_KEY: other.privateKey,
        VAPID_SUBJECT: SUBJECT,
      }),
    ).toMatch(/VAPID_PUBLIC_KEY: it is not the public key of VAPID_PRIVATE_KEY/);
    expect(
      error({
        VAPID_PUBLIC_KEY: pair.publicKey.slice(1),
        VAPID_PRIVATE_KEY: pair.privateKey,
        VAPID_SUBJECT: SUBJECT,
      }),
    ).toMatch(/VAPID_PUBLIC_KEY: Use an uncompressed P-256 public key/);
    expect(
      error({
        VAPID_PUBLIC_KEY: pair.publicKey,
        VAPID_PRIVATE_KEY: `${pair.privateKey}==`,
        VAPID_SUBJECT: SUBJECT,
      }),
    ).toMatch(/VAPID_PRIVATE_KEY: Use a P-256 private key/);
  });

  it('refuses a subject that is neither mailto: nor https:', () => {
    for (const subject of ['http://pipit.example.org', 'operator@pipit.test', 'mailto:nobody']) {
      expect(error({ VAPID_SUBJECT: subject })).toMatch(/VAPID_SUBJECT: Use a contact/);
    }
  });

  it('takes all three, or the subject alone for generated keys, with defaults for the subject', () => {
    expect(
      loadConfig(
        {
          VAPID_PUBLIC_KEY: pair.publicKey,
          VAPID_PRIVATE_KEY: pair.privateKey,
          VAPID_SUBJECT: SUBJECT,
        },
        '/srv',
      ).push,
    ).toEqual({ keys: pair, subject: SUBJECT });
    expect(loadConfig({ VAPID_SUBJECT: 'https://ops.example.org' }, '/srv').push).toEqual({
      keys: undefined,
      subject: 'https://ops.example.org',
    });
    expect(
      loadConfig({ PUBLIC_ORIGIN: 'https://pipit.example.org/app' }, '/srv').push.subject,
    ).toBe('https://pipit.example.org');
    expect(
      loadConfig(
        { PUBLIC_ORIGIN: 'http://pipit.local', MAIL_FROM: 'Pipit <hello@example.org>' },
        '/srv',
      ).push.subject,
    ).toBe('mailto:hello@example.org');
    expect(loadConfig({}, '/srv').push.subject).toBe('mailto:no-reply@localhost');
  });
});

describe('retry delays', () => {
  it('honours Retry-After in seconds and as an HTTP date, capped', () => {
    const now = Date.parse('2026-11-30T06:00:00Z');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Mon, 30 Nov 2026 06:01:30 GMT', now)).toBe(90_000);
    expect(retryAfterMs('Mon, 30 Nov 2026 05:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('9999999', now)).toBe(PUSH_RETRY_MAX_MS);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });

  it('backs off exponentially with jitter, and never past the cap', () => {
    expect(backoffMs(1, () => 0)).toBe(PUSH_RETRY_BASE_MS / 2);
    expect(backoffMs(1, () => 1)).toBe(PUSH_RETRY_BASE_MS);
    expect(backoffMs(3, () => 1)).toBe(PUSH_RETRY_BASE_MS * 4);
    expect(backoffMs(100, () => 1)).toBe(PUSH_RETRY_MAX_MS);
    expect(backoffMs(100, () => 0)).toBe(PUSH_RETRY_MAX_MS / 2);
  });
});

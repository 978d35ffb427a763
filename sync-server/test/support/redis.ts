import { randomBytes } from 'node:crypto';
import IORedis from 'ioredis';

/**
 * The Redis tests use: every machine of this project's kind runs one on 127.0.0.1:6379
 * (docs/library-notes.md#toolchain-and-test-machines). Tests never skip when it is missing; they
 * fail and say how to point them elsewhere.
 */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A key prefix of its own for one suite, so suites running at once never hear each other. */
export async function testRedisPrefix(): Promise<string> {
  const client = new IORedis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    throw new Error(
      `Redis is not reachable at ${TEST_REDIS_URL} (${String(error)}). Start it, or set TEST_REDIS_URL.`,
      { cause: error },
    );
  } finally {
    client.disconnect();
  }
  return `pipit-test-${randomBytes(5).toString('hex')}`;
}

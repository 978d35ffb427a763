import { ApiClient } from './api-client';
import { ROOMY_RATE_LIMITS, TEST_PASSWORD } from './engines';
import { createTestDatabase, type TestDatabase } from './postgres';
import { TEST_REDIS_URL, testRedisPrefix } from './redis';
import { type RunningPipit, type StartOptions, startPipit } from './start-server';
import { startTcpProxy, type TcpProxy } from './tcp-proxy';

export interface ClusterInstance {
  pipit: RunningPipit;
  /** This instance's own link to Redis: cut it to partition this instance alone. */
  redisLink: TcpProxy;
}

export interface TestCluster {
  instances: ClusterInstance[];
  database: TestDatabase;
  /** Signs a new person up through the first instance; their client for instance `at`. */
  signup(username: string, at?: number): Promise<ApiClient>;
  /** The same person (their session cookie) on another instance. */
  on(client: ApiClient, at: number): ApiClient;
  close(): Promise<void>;
}

/**
 * Several real Pipit instances in this process, on one PostgreSQL database and one Redis (with a
 * prefix of their own), each reaching Redis through a TCP proxy of its own
 * (docs/scaling.md). The process-level cluster with HAProxy is the fault suite's (cluster-faults).
 */
export async function startTestCluster(
  count = 2,
  options: Omit<StartOptions, 'env' | 'storage'> = {},
): Promise<TestCluster> {
  const database = await createTestDatabase();
  const prefix = await testRedisPrefix();
  const redis = new URL(TEST_REDIS_URL);
  const instances: ClusterInstance[] = [];
  for (let i = 0; i < count; i++) {
    const redisLink = await startTcpProxy({
      host: redis.hostname,
      port: Number(redis.port || 6379),
    });
    const pipit = await startPipit({
      rateLimits: ROOMY_RATE_LIMITS,
      ...options,
      env: {
        DATABASE_URL: database.url,
        REDIS_URL: redisLink.url(TEST_REDIS_URL),
        REDIS_PREFIX: prefix,
        INSTANCE_NAME: `test-${i}`,
        HUMAN_CHECK_DIFFICULTY: '500',
      },
    });
    instances.push({ pipit, redisLink });
  }
  const on = (client: ApiClient, at: number) => {
    const other = new ApiClient(instances[at]!.pipit.url);
    other.cookie = client.cookie;
    return other;
  };
  return {
    instances,
    database,
    async signup(username, at = 0) {
      const client = new ApiClient(instances[0]!.pipit.url);
      const response = await client.post(
        '/api/auth/signup',
        { username, email: `${username}@example.org`, password: TEST_PASSWORD },
        true,
      );
      if (response.status !== 201)
        throw new Error(`sign-up failed: ${JSON.stringify(response.body)}`);
      return at === 0 ? client : on(client, at);
    },
    on,
    async close() {
      for (const { pipit, redisLink } of instances.reverse()) {
        await pipit.close();
        await redisLink.close();
      }
      await database.drop();
    },
  };
}

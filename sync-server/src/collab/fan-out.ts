import { randomUUID } from 'node:crypto';
import type { Logger } from '../logger';
import type { RedisConfig } from '../config';
import type { RedisFanOut } from './redis-fan-out';

/**
 * Something one instance decided about documents or people that every instance must carry out on
 * the connections it holds (server/cluster-events.ts): close a person's or a session's connections, look
 * again at who may see an app's data, stop writing documents being deleted.
 */
export type ClusterEvent =
  /** Sessions ended (sign-out, password change, account deletion): their connections close. */
  | { kind: 'sessions-ended'; sessionIds: string[] }
  /** A person lost access to an app (userId null: everyone but the owner), or their role changed. */
  | {
      kind: 'app-access';
      appId: string;
      userId: string | null;
      reason: 'forbidden' | 'role_changed';
    }
  /**
   * A person left or was removed from a shared space (userId null: everyone in it), or their role
   * in it changed.
   */
  | {
      kind: 'space-access';
      spaceId: string;
      userId: string | null;
      reason: 'forbidden' | 'role_changed';
    }
  /** The app's visitors changed (made private, unpublished): visitors who may not see it go. */
  | { kind: 'visitors-changed'; appId: string }
  /**
   * Documents of an app, a person or a shared space are being deleted: stop writing them and close
   * them. With `draftId`, only that draft of the app (docs/product/drafts.md).
   */
  | { kind: 'deleting'; appId: string; draftId?: string }
  | { kind: 'deleting'; userId: string }
  | { kind: 'deleting'; spaceId: string };

/** What the instances share besides storage (docs/scaling.md). */
export interface Cluster {
  /** This instance's name among the others. */
  readonly instanceId: string;
  /**
   * Carries out `event` here, then on every other instance. Resolves once this instance has, and
   * each other instance reachable now has answered that it has too (or a few seconds passed).
   */
  broadcast(event: ClusterEvent): Promise<void>;
  /** The step that fans document edits and presence out to the other instances (null: alone). */
  readonly extension: RedisFanOut | null;
  /** Whether the other instances can be reached now (always true alone). */
  connected(): boolean;
  close(): Promise<void>;
}

export type ClusterHandler = (event: ClusterEvent) => Promise<void>;

export interface ClusterOptions {
  redis: RedisConfig | undefined;
  instanceName: string;
  logger: Logger;
  /** Carries out an event on this instance's connections. */
  handle: ClusterHandler;
  /**
   * The control channel is back after this instance could not hear it: decisions made meanwhile
   * by other instances never reached it, so it checks its open connections again.
   */
  onRejoined?: () => Promise<void>;
}

/**
 * The instances as one (docs/scaling.md). Alone (no REDIS_URL), an event is carried out here and
 * that is all, and nothing of Redis is loaded. With Redis, see redis-fan-out.ts.
 */
export async function createCluster(options: ClusterOptions): Promise<Cluster> {
  const instanceId = `${options.instanceName}-${randomUUID().slice(0, 8)}`;
  if (!options.redis) {
    return {
      instanceId,
      extension: null,
      broadcast: (event) => options.handle(event),
      connected: () => true,
      close: () => Promise.resolve(),
    };
  }
  const { createRedisCluster } = await import('./redis-fan-out');
  return createRedisCluster({ ...options, redis: options.redis, instanceId });
}

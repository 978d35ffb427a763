import { randomUUID } from 'node:crypto';
import type {
  afterLoadDocumentPayload,
  Document,
  Hocuspocus,
  onAwarenessUpdatePayload,
  onChangePayload,
  onConfigurePayload,
} from '@hocuspocus/server';
import { isTransactionOrigin, OutgoingMessage } from '@hocuspocus/server';
import { Redis as RedisExtension } from '@hocuspocus/extension-redis';
import IORedis, { type RedisOptions } from 'ioredis';
import * as Y from 'yjs';
import type { Logger } from '../logger';
import type { RedisConfig } from '../config';
import type { Cluster, ClusterEvent, ClusterOptions } from './fan-out';

/** How long a broadcast waits for the other instances to say they carried it out. */
export const BROADCAST_ACK_TIMEOUT_MS = 5_000;
/** How long loading a document waits for Redis before it goes on without it (it syncs later). */
export const JOIN_TIMEOUT_MS = 2_000;

/**
 * Hocuspocus's Redis extension (@hocuspocus/extension-redis), with what Pipit changes about it:
 *
 * - **No store lock.** The extension takes a Redis lock (Redlock) around each store and skips the
 *   store when another instance holds it. Pipit's store merges into what is stored in one
 *   transaction (DocumentStore.compact), so two instances storing one document at once lose
 *   nothing, and a lock that cannot be taken — Redis down or slow (hocuspocus #983, #1024, #1032)
 *   — can no longer stop a store.
 * - **Redis is not needed to serve.** While Redis cannot be reached, documents still load (they
 *   join their channel once it is back), and edits and presence are not queued for it: when a
 *   connection to Redis is ready again, every loaded document announces its state (a sync step 1
 *   answered by each peer with what it lacks, and asked back), so the instances converge without
 *   any client reloading. Without that, what was published during the outage is lost for good:
 *   Redis pub/sub keeps nothing.
 * - No wait for peers on load: what any instance acknowledged is in storage already (the durable
 *   log), and what a peer has in flight arrives a moment later through the channel.
 */
export class RedisFanOut extends RedisExtension {
  private readonly logger: Logger;
  private readonly prefix: string;
  /** Documents that did not join their channel (Redis was down): they do once it is back. */
  private readonly unjoined = new Set<string>();
  private hocuspocus: Hocuspocus | undefined;
  /** Per document, the edits made here this turn, published together at its end (onChange). */
  private readonly outgoing = new Map<string, Uint8Array[]>();

  constructor(options: { url: string; prefix: string; identifier: string; logger: Logger }) {
    const redisOptions: RedisOptions = {
      // Publishing while Redis is down fails at once instead of piling up (resync replaces it).
      maxRetriesPerRequest: 1,
      connectTimeout: 2_000,
      retryStrategy: (times) => Math.min(times * 100, 1_000),
    };
    super({
      createClient: () => new IORedis(options.url, redisOptions),
      prefix: `${options.prefix}:doc`,
      identifier: options.identifier,
      // The extension waits this long before a document unloads, for syncs under way.
      disconnectDelay: 500,
      awaitInitialSyncTimeout: 0,
    });
    this.logger = options.logger;
    this.prefix = `${options.prefix}:doc`;
    // The extension publishes some answers without waiting for them (a peer's sync step 1 is
    // answered from a callback whose promise nobody holds): one failing as Redis goes away would
    // be an unhandled rejection. Each publish is marked handled; callers still get its outcome.
    const publish = this.pub.publish.bind(this.pub) as (...args: unknown[]) => Promise<number>;
    (this.pub as unknown as { publish: typeof publish }).publish = (...args) => {
      const published = publish(...args);
      published.catch(() => undefined);
      return published;
    };
    // ioredis reports each failed reconnection as an error event; without a listener it prints.
    let down = false;
    for (const client of [this.pub, this.sub]) {
      client.on('error', (error: Error) => {
        if (!down)
          this.logger.warn({ err: error }, 'Redis cannot be reached; serving alone meanwhile');
        down = true;
      });
      client.on('ready', () => {
        if (down) this.logger.info('Redis is back; announcing every loaded document');
        down = false;
        void this.rejoinAll();
      });
    }
  }

  private get ready(): boolean {
    return this.pub.status === 'ready' && this.sub.status === 'ready';
  }

  override async onConfigure(payload: onConfigurePayload) {
    this.hocuspocus = payload.instance;
    await super.onConfigure(payload);
  }

  override async afterLoadDocument({ documentName, document }: afterLoadDocumentPayload) {
    // Messages for it are applied while Hocuspocus finishes loading it (the extension's own map).
    (this as unknown as ExtensionInternals).documents.set(documentName, document);
    if (!this.ready) {
      this.unjoined.add(documentName);
      return;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), JOIN_TIMEOUT_MS);
    });
    const joined = this.join(documentName, document).then(
      () => 'joined' as const,
      () => 'failed' as const,
    );
    const outcome = await Promise.race([joined, timeout]);
    clearTimeout(timer);
    if (outcome !== 'joined') this.unjoined.add(documentName);
  }

  /** Subscribes to the document's channel and tells the others its state (they answer theirs). */
  private async join(documentName: string, document: Document) {
    await this.sub.subscribe(this.channelOf(documentName));
    this.unjoined.delete(documentName);
    const state = new OutgoingMessage(documentName)
      .createSyncMessage()
      .writeFirstSyncStepFor(document);
    const awareness = new OutgoingMessage(documentName).writeQueryAwareness();
    await Promise.all([
      this.publishOn(documentName, state),
      this.publishOn(documentName, awareness),
    ]);
  }

  private channelOf(documentName: string): string {
    return `${this.prefix}:${documentName}`;
  }

  /** A message on the document's channel, marked as this instance's (the others skip their own). */
  private publishOn(documentName: string, message: OutgoingMessage): Promise<number> {
    const data = Buffer.concat([this.messagePrefix, message.toUint8Array()]);
    return this.pub.publish(this.channelOf(documentName), data);
  }

  /** After an outage: every loaded document (re)joins and announces its state. */
  private async rejoinAll() {
    if (!this.hocuspocus || !this.ready) return;
    try {
      // Peers answer a document's announcement on this instance's own reply channel; the
      // subscription made at start fails for good if Redis was down then.
      await this.sub.subscribe(`${this.prefix}#reply:${this.configuration.identifier}`);
    } catch (error) {
      this.logger.warn({ err: error }, 'subscribing to the reply channel failed');
      return;
    }
    const documents = [...this.hocuspocus.documents.values()];
    for (const document of documents) {
      try {
        await this.join(document.name, document);
      } catch (error) {
        this.unjoined.add(document.name);
        this.logger.warn(
          { err: error, documentName: document.name },
          'rejoining a document failed',
        );
        return;
      }
    }
  }

  /** Documents loaded here that have not joined their channel yet (for the tests and /metrics). */
  unjoinedDocuments(): string[] {
    return [...this.unjoined];
  }

  /** Redis is reachable now. */
  isConnected(): boolean {
    return this.ready;
  }

  /**
   * An edit made here goes to the other instances as itself: the document's updates of one turn
   * of the event loop, merged, in one publish, which each peer applies and sends on to its
   * clients. The extension publishes a state vector instead, which each peer answers with its
   * own, which is answered with the edit: three trips through Redis and two diffs of the
   * document per change, and across instances took twice as long as on one (docs/scaling.md).
   * Redis delivers a connection's messages in order; what a peer missed while either was cut off
   * is exchanged by state vector when the connection is back (rejoinAll), and so is an edit whose
   * publish failed. Nothing is published while Redis is down.
   */
  override onChange({ documentName, document, update, transactionOrigin }: onChangePayload) {
    if (!this.ready) return Promise.resolve();
    if (isTransactionOrigin(transactionOrigin) && transactionOrigin.source === 'redis') {
      return Promise.resolve();
    }
    const waiting = this.outgoing.get(documentName);
    if (waiting) {
      waiting.push(update);
      return Promise.resolve();
    }
    this.outgoing.set(documentName, [update]);
    setImmediate(() => this.publishUpdates(documentName, document));
    return Promise.resolve();
  }

  private publishUpdates(documentName: string, document: Document) {
    const updates = this.outgoing.get(documentName) ?? [];
    this.outgoing.delete(documentName);
    if (updates.length === 0 || !this.ready) return;
    const update = updates.length === 1 ? updates[0]! : Y.mergeUpdates(updates);
    const message = new OutgoingMessage(documentName).createSyncMessage().writeUpdate(update);
    this.publishOn(documentName, message)
      // The peers ask for what they lack once the document's state is announced again.
      .catch(() => this.join(documentName, document))
      .catch((error: unknown) =>
        this.logger.warn({ err: error, documentName }, 'publishing an edit to Redis failed'),
      );
  }

  override async onAwarenessUpdate(data: onAwarenessUpdatePayload) {
    if (this.ready) await super.onAwarenessUpdate(data);
  }

  // No store lock (see above).
  override async onStoreDocument() {}
  override async afterStoreDocument() {}

  override async afterUnloadDocument(data: Parameters<RedisExtension['afterUnloadDocument']>[0]) {
    if (!data.instance.documents.has(data.documentName)) this.unjoined.delete(data.documentName);
    await super.afterUnloadDocument(data);
  }
}

/** The extension's private map of loaded documents (read by a test: it fails if this moves). */
interface ExtensionInternals {
  documents: Map<string, Document>;
}

interface ControlMessage {
  from: string;
  id: string;
  event: ClusterEvent;
}

/**
 * The instances through Redis: document edits and presence go through the Hocuspocus Redis
 * extension (RedisFanOut), and events through a control channel; each instance answers on the
 * sender's own channel once it has carried one out, and the sender waits for the answers of the
 * instances listening now.
 */
export function createRedisCluster(
  options: ClusterOptions & { redis: RedisConfig; instanceId: string },
): Cluster {
  const { instanceId } = options;
  const { logger, handle } = options;
  const { url, prefix } = options.redis;
  const extension = new RedisFanOut({ url, prefix, identifier: instanceId, logger });
  const controlChannel = `${prefix}:control`;
  const ackChannel = `${prefix}:control-ack:${instanceId}`;
  const clientOptions: RedisOptions = {
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    retryStrategy: (times) => Math.min(times * 100, 1_000),
  };
  const pub = new IORedis(url, clientOptions);
  const sub = new IORedis(url, clientOptions);
  let missed = false;
  for (const client of [pub, sub]) client.on('error', () => (missed = true));
  sub.on('ready', () => {
    if (!missed) return;
    missed = false;
    void sub
      .subscribe(controlChannel, ackChannel)
      .then(() => options.onRejoined?.())
      .catch((error: unknown) =>
        logger.warn({ err: error }, 'checking connections again after Redis came back failed'),
      );
  });
  const waiting = new Map<string, { acks: number; done: () => void }>();

  void sub.subscribe(controlChannel, ackChannel).catch((error: unknown) => {
    logger.warn({ err: error }, 'subscribing to the control channel failed (retried on reconnect)');
  });
  sub.on('message', (channel: string, text: string) => {
    let message: ControlMessage | { ack: string };
    try {
      message = JSON.parse(text) as ControlMessage | { ack: string };
    } catch {
      return;
    }
    if (channel === ackChannel && 'ack' in message) {
      const entry = waiting.get(message.ack);
      if (entry) {
        entry.acks -= 1;
        if (entry.acks <= 0) entry.done();
      }
      return;
    }
    if (channel !== controlChannel || !('event' in message) || message.from === instanceId) return;
    const { from, id, event } = message;
    handle(event)
      .catch((error: unknown) =>
        logger.error({ err: error, event: event.kind }, 'carrying out a cluster event failed'),
      )
      .finally(() => {
        pub
          .publish(`${prefix}:control-ack:${from}`, JSON.stringify({ ack: id }))
          .catch(() => undefined);
      });
  });

  async function others(): Promise<number> {
    const [, count] = (await pub.pubsub('NUMSUB', controlChannel)) as [string, number | string];
    // This instance listens too (when its subscription is up).
    return Math.max(0, Number(count) - (sub.status === 'ready' ? 1 : 0));
  }

  return {
    instanceId,
    extension,
    async broadcast(event) {
      await handle(event);
      const id = randomUUID();
      let expected: number;
      try {
        expected = await others();
        if (expected === 0) return;
        const answered = new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            logger.warn(
              { event: event.kind, missing: waiting.get(id)?.acks },
              'not every instance answered a cluster event in time',
            );
            waiting.delete(id);
            resolve();
          }, BROADCAST_ACK_TIMEOUT_MS);
          waiting.set(id, {
            acks: expected,
            done: () => {
              clearTimeout(timer);
              waiting.delete(id);
              resolve();
            },
          });
        });
        await pub.publish(
          controlChannel,
          JSON.stringify({ from: instanceId, id, event } satisfies ControlMessage),
        );
        await answered;
      } catch (error) {
        waiting.delete(id);
        // Instances out of reach carry on with what they hold; access is checked again on every
        // connection, and a deleted app's documents are never stored again (compact's owner check).
        logger.warn(
          { err: error, event: event.kind },
          'a cluster event could not reach the other instances',
        );
      }
    },
    connected: () => extension.isConnected() && pub.status === 'ready' && sub.status === 'ready',
    async close() {
      for (const entry of waiting.values()) entry.done();
      await extension.onDestroy();
      pub.disconnect(false);
      sub.disconnect(false);
    },
  };
}

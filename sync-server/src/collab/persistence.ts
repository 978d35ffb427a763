import type {
  Extension,
  beforeUnloadDocumentPayload,
  onChangePayload,
  onLoadDocumentPayload,
  onStoreDocumentPayload,
} from '@hocuspocus/server';
import { shouldSkipStoreHooks } from '@hocuspocus/server';
import * as Y from 'yjs';
import { createDigest } from '../digest';
import type { Logger } from '../logger';
import type { DocumentStore } from '../storage/types';
import { SyncRefusal } from './refusal';

export const STORE_RETRY_INITIAL_DELAY_MS = 100;
export const STORE_RETRY_MAX_DELAY_MS = 5_000;

export interface Persistence extends Extension {
  /** Documents with changes that are not in storage yet. */
  unsavedDocuments(): string[];
  /** Stop retrying failed stores (at the end of a shutdown's grace period). */
  abandonRetries(): void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Yjs persistence through the storage interface. Hocuspocus 4.7 unloads a document whose last store
 * failed as soon as its last client leaves, losing the change (NOTES.md: Hocuspocus and Yjs). So a
 * store is retried, with backoff, until it succeeds, and a document with unsaved changes refuses to
 * unload (and gets an immediate store instead).
 */
export function createPersistence(store: DocumentStore, logger: Logger): Persistence {
  /** Per document: how many changes it has seen, and how many of those are stored. */
  const changes = new Map<string, number>();
  const stored = new Map<string, number>();
  let abandoned = false;

  const isDirty = (name: string) => (changes.get(name) ?? 0) > (stored.get(name) ?? 0);

  return {
    extensionName: 'pipit-persistence',

    async onLoadDocument({ documentName, document }: onLoadDocumentPayload) {
      let state: Uint8Array | null;
      try {
        state = await store.load(documentName);
      } catch (error) {
        // The provider is told the storage is unavailable (not "permission denied") and retries.
        logger.error(
          { err: error, documentName, digest: createDigest() },
          'loading a document failed',
        );
        throw new SyncRefusal('storage-unavailable');
      }
      if (state) Y.applyUpdate(document, state);
    },

    onChange({ documentName, transactionOrigin }: onChangePayload) {
      // Updates relayed from another instance (Redis) are stored by the instance that received them.
      if (shouldSkipStoreHooks(transactionOrigin)) return Promise.resolve();
      changes.set(documentName, (changes.get(documentName) ?? 0) + 1);
      return Promise.resolve();
    },

    async onStoreDocument({ documentName, document }: onStoreDocumentPayload) {
      const upTo = changes.get(documentName) ?? 0;
      for (let attempt = 1; ; attempt++) {
        try {
          await store.store(documentName, Y.encodeStateAsUpdate(document));
          break;
        } catch (error) {
          if (abandoned) throw error;
          const delay = Math.min(
            STORE_RETRY_MAX_DELAY_MS,
            STORE_RETRY_INITIAL_DELAY_MS * 2 ** (attempt - 1),
          );
          logger.warn(
            { err: error, documentName, attempt, retryInMs: delay },
            'storing a document failed; retrying',
          );
          await sleep(delay);
        }
      }
      stored.set(documentName, Math.max(stored.get(documentName) ?? 0, upTo));
    },

    beforeUnloadDocument({ documentName, document, instance }: beforeUnloadDocumentPayload) {
      if (!isDirty(documentName)) return Promise.resolve();
      void instance.storeDocumentHooks(
        document,
        {
          instance,
          clientsCount: document.getConnectionsCount(),
          document,
          documentName,
          lastContext: {},
          lastTransactionOrigin: undefined,
        },
        true,
      );
      return Promise.reject(new SyncRefusal('unsaved-changes'));
    },

    afterUnloadDocument({ documentName }) {
      changes.delete(documentName);
      stored.delete(documentName);
      return Promise.resolve();
    },

    unsavedDocuments: () => [...changes.keys()].filter(isDirty),

    abandonRetries() {
      abandoned = true;
    },
  };
}

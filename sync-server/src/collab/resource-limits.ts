import { getHeapStatistics } from 'node:v8';
import { LIMITS } from '@pipit/app-definition';
import { SPACE_LIMITS } from '@pipit/protocol';

/**
 * What one document, one socket and one person may hold in this process's memory at once
 * (docs/limits.md). Bytes alone do not bound memory: a Yjs document costs about 500 bytes of heap
 * per item once loaded, so 4.4 MB of tiny map entries (370,000 items) take ~200 MB. Items are
 * counted as well as bytes, per document and per person.
 */
export interface ResourceLimits {
  /** A document's encoded size. */
  documentBytes: number;
  /** Yjs structs in one document, deleted ones included. */
  documentItems: number;
  /** Records in one shared space's document (space-guard.ts). */
  spaceRecords: number;
  /** Documents one socket holds open at once. */
  socketDocuments: number;
  /** Sync sockets one person holds open at once (tabs, devices, installed apps). */
  personSockets: number;
  /** Documents one person holds open at once, over all their sockets. */
  personDocuments: number;
  /** The encoded size of all the documents one person holds open. */
  personBytes: number;
  /** Yjs structs in all the documents one person holds open. */
  personItems: number;
  /** Messages one socket has sent that are not handled yet; past this it is not read from. */
  socketQueuedBytes: number;
  /**
   * Updates applied (and sent on to other clients) but not in the durable log yet, over the whole
   * process: past this, an update waits for its own write before it is applied, so a slow or
   * unreachable database fills the sockets' queues (and stops reading them) instead of memory.
   */
  logWaitingBytes: number;
  /**
   * What the server has written to one socket that the other side has not taken yet (a client
   * that does not read); past this, or past the person's total, the socket is closed.
   */
  socketUnsentBytes: number;
  personUnsentBytes: number;
  /**
   * Sockets whose session is being read, and document connections whose access is being checked
   * or whose document is loading, at once over the whole process. Past it the next one is told
   * the server is busy at once, and its client tries again a moment later: a reconnect storm (every
   * socket of a restarted instance back at the same time) is taken in turns rather than as
   * thousands of queued database reads.
   */
  openingAtOnce: number;
  /** Past this heap size no document is loaded: the server says it is busy instead. */
  heapBudgetBytes: number;
}

const MB = 1024 * 1024;

/**
 * One document's bounds are the definition's (LIMITS.documentBytes and documentItems). A person's
 * totals allow a few such documents at once (their editor, the background sync of their other
 * apps, the data of the app they are using) — about 200 MB of heap at most.
 */
export const DEFAULT_RESOURCE_LIMITS: Omit<ResourceLimits, 'heapBudgetBytes'> = {
  documentBytes: LIMITS.documentBytes,
  documentItems: LIMITS.documentItems,
  spaceRecords: SPACE_LIMITS.recordsPerSpace,
  socketDocuments: 100,
  personSockets: 16,
  personDocuments: 200,
  personBytes: 40 * MB,
  personItems: 400_000,
  socketQueuedBytes: 16 * MB,
  logWaitingBytes: 32 * MB,
  socketUnsentBytes: 32 * MB,
  personUnsentBytes: 64 * MB,
  openingAtOnce: 200,
};

/** Three quarters of V8's heap limit: room left for the requests and stores under way. */
export function defaultHeapBudgetBytes(): number {
  return Math.floor(getHeapStatistics().heap_size_limit * 0.75);
}

import type {
  afterHandleMessagePayload,
  beforeHandleMessagePayload,
  Extension,
} from '@hocuspocus/server';
import * as Y from 'yjs';
import { parseDocumentName, type UpdateRefusalReason } from '@pipit/protocol';
import type { Logger } from '../logger';
import type { CollabTimings } from '../metrics';
import type { ConnectionContext } from './authenticate';
import {
  type ClaimClients,
  claimForWriter,
  claimTentative,
  type ClientWriter,
  clientsWriting,
  hasSeveralWriters,
} from './client-owners';
import type { CheckedUpdate, DocumentLedger } from './document-ledger';
import { judgePartWay, refusedOnCopy } from './part-way';
import { SyncRefusal } from './refusal';
import type { DocumentUsage, ResourceBounds } from './resource-bounds';
import type { ResourceLimits } from './resource-limits';
import { judgeSpaceUpdate } from './space-guard';
import type { SpaceRuleOf, SpaceRules } from './space-rules';
import { syncPayloadOf } from './sync-message';
import {
  type DecodedUpdate,
  decodeUpdate,
  deletesAhead,
  misplacedPartWay,
  planIntegration,
  repeatsAClient,
} from './yjs-integration';
import { growthOf, waitingBytes } from './yjs-usage';

/**
 * What a document may keep aside waiting for missing parts. Yjs decodes all of it again whenever
 * one missing part arrives: 1 MB of it cost ~100 ms of blocked event loop per tiny update. A
 * provider's updates never wait in practice; 64 KB leaves room for one out of order.
 */
export const MAX_WAITING_BYTES = 64 * 1024;
/**
 * A sync step 1's state vector: one entry per client that ever wrote the document (each page load
 * is a client), a few bytes each. The server decodes it to answer; 1 MB is ~100,000 clients.
 */
export const MAX_STATE_VECTOR_BYTES = 1024 * 1024;

export interface MessageCheck {
  documentName: string;
  message: Uint8Array;
  document: Y.Doc;
  /** The document's size now, with the updates let through before. */
  usage: DocumentUsage;
  /** A space's new records in updates let through before, not applied yet. */
  recordsInFlight?: number;
  readOnly: boolean;
  limits: Pick<ResourceLimits, 'documentBytes' | 'documentItems'> &
    Partial<Pick<ResourceLimits, 'spaceRecords'>>;
  bounds?: ResourceBounds | undefined;
  /** The sending socket, for the person's limits (absent for the server's own connections). */
  socketKey?: string | undefined;
  logger: Logger;
  /** Counts each refusal by reason (pipit_sync_protocol_errors_total). */
  timings?: Pick<CollabTimings, 'protocolError'> | undefined;
  /**
   * For a shared space's document: who sends the update and the space's record rules, to judge
   * which records it may change (space-guard.ts).
   */
  space?: { userId: string; ruleOf: SpaceRuleOf } | undefined;
  /**
   * For a document several people write: who sends it, and who owns which client id
   * (client-owners.ts). Parts under a client id owned by someone else are refused; client ids not
   * known yet are answered `{ claim }`, to be claimed before the update is checked again.
   */
  writer?: ClientWriter | undefined;
}

/** Client ids the update writes under whose owner is not known yet: claim them, check again. */
export interface ClaimNeeded {
  claim: number[];
}

/** Whether Yjs reads the update through (what applying it, or comparing with it, reads). */
function decodes(update: Uint8Array): boolean {
  try {
    Y.decodeUpdate(update);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether an item of the update names a later part of its own client as its left or right
 * neighbour or its parent. Yjs never writes one and `Y.decodeUpdate` reads it, but applying it
 * throws midway, after changing part of the document; y-protocols prints the error with its stack
 * and acknowledges the update (found by fuzz-sync.test.ts).
 */
function refersAhead(decoded: DecodedUpdate): boolean {
  for (const struct of decoded.structs) {
    if (!(struct instanceof Y.Item)) continue;
    const { client, clock } = struct.id;
    const parent = struct.parent instanceof Y.ID ? struct.parent : null;
    for (const ref of [struct.origin, struct.rightOrigin, parent]) {
      if (ref && ref.client === client && ref.clock >= clock) return true;
    }
  }
  return false;
}

/**
 * Every message a client sends about a document is checked here before Hocuspocus handles it
 * (docs/limits.md). Returns the update to log, null when the message carries none to log, or
 * throws the refusal that closes this document's connection. Cheap checks come first: a refused
 * update costs as little as it can, and one person's refusals in a row slow them down.
 */
export function checkMessage(check: MessageCheck): CheckedUpdate | ClaimNeeded | null {
  const { documentName, logger, bounds, socketKey, timings } = check;
  const refuse = (error: SyncRefusal, details: Record<string, unknown>) => {
    timings?.protocolError(error.reason as UpdateRefusalReason);
    // The server being short of memory is not the sender's doing.
    if (socketKey && error.reason !== 'server_busy') bounds?.noteRefusal(socketKey);
    logger.warn({ documentName, reason: error.reason, ...details }, 'refused a sync message');
    return error;
  };
  if (socketKey && bounds?.isSlowedDown(socketKey)) {
    // No decoding for someone whose messages keep being refused: they wait a minute.
    timings?.protocolError('slow_down');
    throw new SyncRefusal('slow_down');
  }
  let payload: ReturnType<typeof syncPayloadOf>;
  try {
    payload = syncPayloadOf(check.message);
  } catch {
    throw refuse(new SyncRefusal('update_rejected'), { why: 'malformed framing' });
  }
  if (payload?.kind === 'state-vector') {
    if (payload.stateVector.byteLength > MAX_STATE_VECTOR_BYTES) {
      throw refuse(new SyncRefusal('update_rejected'), {
        why: 'state vector too large',
        bytes: payload.stateVector.byteLength,
      });
    }
    try {
      // Hocuspocus decodes it to answer; a malformed one would close with a reason of its own.
      Y.decodeStateVector(payload.stateVector);
    } catch {
      throw refuse(new SyncRefusal('update_rejected'), { why: 'malformed state vector' });
    }
    return null;
  }
  if (payload?.kind !== 'update') return null;
  const { update } = payload;
  if (check.readOnly) {
    // A viewer's update is refused by Hocuspocus itself (read-only connection); not logged. It
    // reads a sync step 2 to answer whether the viewer has it already, so that one must decode.
    if (payload.step === 'step-2' && !decodes(update)) {
      throw refuse(new SyncRefusal('update_rejected'), { why: 'malformed update' });
    }
    return null;
  }
  const { usage, limits } = check;
  // Bytes before anything is decoded: decoding 5 MB of tiny structs takes a second.
  if (usage.bytes + update.byteLength > limits.documentBytes) {
    throw refuse(new SyncRefusal('document_too_large'), {
      bytes: usage.bytes,
      updateBytes: update.byteLength,
    });
  }
  let decoded: DecodedUpdate;
  try {
    decoded = decodeUpdate(update);
  } catch (error) {
    // One short line, no stack: a client's fault, and one a client can repeat at will.
    throw refuse(new SyncRefusal('update_rejected'), {
      why: 'malformed update',
      error: error instanceof Error ? error.message : String(error),
    });
  }
  // An empty sync step 2 (nothing to send) changes nothing: nothing to log.
  if (decoded.structs.length === 0 && decoded.ds.clients.size === 0) return null;
  if (repeatsAClient(decoded) || refersAhead(decoded)) {
    throw refuse(new SyncRefusal('update_rejected'), { why: 'malformed update' });
  }
  if (check.writer) {
    const unknown: number[] = [];
    for (const client of clientsWriting(decoded, check.document)) {
      const owner = check.writer.ownerOf(client);
      if (owner === undefined) unknown.push(client);
      else if (owner !== check.writer.userId) {
        throw refuse(new SyncRefusal('update_rejected'), {
          why: "writes under someone else's client id",
          client,
        });
      }
    }
    if (unknown.length > 0) return { claim: unknown };
  }
  const { items, hasSubdocument } = growthOf(decoded, (client) =>
    Y.getState(check.document.store, client),
  );
  if (hasSubdocument) {
    throw refuse(new SyncRefusal('update_rejected'), { why: 'subdocument' });
  }
  // Everything below judges what Yjs will do with the update, not what it declares.
  const plan = planIntegration(decoded, check.document);
  if (misplacedPartWay(plan, check.document)) {
    throw refuse(new SyncRefusal('update_rejected'), { why: 'an item is not where it says' });
  }
  const partWay = judgePartWay(decoded, plan, check.document);
  if (partWay === 'try-on-copy' && socketKey) {
    // A copy of the document costs what a refusal does: five a minute slow the sender down.
    bounds?.noteRefusal(socketKey);
  }
  if (
    partWay === 'refuse' ||
    (partWay === 'try-on-copy' && refusedOnCopy(check.document, update))
  ) {
    throw refuse(new SyncRefusal('update_rejected'), { why: 'malformed update' });
  }
  const waits = plan.waiting.size > 0 || deletesAhead(decoded, plan);
  if (waits && waitingBytes(check.document) + update.byteLength > MAX_WAITING_BYTES) {
    throw refuse(new SyncRefusal('update_rejected'), {
      why: 'too much waiting for missing parts',
      waitingBytes: waitingBytes(check.document),
      updateBytes: update.byteLength,
    });
  }
  if (usage.items + items > limits.documentItems) {
    throw refuse(new SyncRefusal('document_too_large'), {
      items: usage.items,
      updateItems: items,
    });
  }
  const growth = { bytes: update.byteLength, items };
  if (bounds && socketKey) {
    const over = bounds.overLimits(socketKey, growth);
    if (over) throw refuse(new SyncRefusal(over), { update: growth });
  }
  if (check.space) {
    // A shared space: only the records the sender may change, judged from what the update writes.
    const verdict = judgeSpaceUpdate({
      doc: check.document,
      decoded,
      plan,
      recordsInFlight: check.recordsInFlight ?? 0,
      ...(limits.spaceRecords !== undefined ? { recordLimit: limits.spaceRecords } : {}),
      ...check.space,
    });
    if ('why' in verdict) throw refuse(new SyncRefusal('update_rejected'), { ...verdict });
    return { update, growth, records: verdict.added };
  }
  return { update, growth };
}

/**
 * The update guard as a Hocuspocus step: every message a client sends about a document is decoded
 * once, here, and checked before anything else sees it (checkMessage). An update it lets through
 * is written in the ledger for its connection — counted against the document from now on — where
 * the update log takes it (update-log.ts); once Hocuspocus applied it, it is settled. A refusal
 * closes only that document's connection.
 */
export function createUpdateGuard(options: {
  ledger: DocumentLedger;
  limits: Pick<ResourceLimits, 'documentBytes' | 'documentItems'> &
    Partial<Pick<ResourceLimits, 'spaceRecords'>>;
  bounds?: ResourceBounds | undefined;
  logger: Logger;
  timings?: Pick<CollabTimings, 'protocolError'> | undefined;
  /** The record rules of shared spaces; without them, every collection has the strictest one. */
  spaceRules?: SpaceRules | undefined;
  /**
   * Claims client ids of a document for a person and answers their owners (storage's
   * `claimClients`); without it, client ids are not checked.
   */
  claimClients?: ClaimClients | undefined;
  /** The server's clock (tests move it). */
  now?: () => number;
}): Extension {
  const { ledger, limits, bounds, logger, timings, spaceRules, claimClients } = options;
  const now = options.now ?? Date.now;

  /**
   * What a space's updates are judged with (checkMessage): the sender and the space's rules, read
   * from storage only when none are kept (space-rules.ts).
   */
  async function spaceOf(
    documentName: string,
    readOnly: boolean,
    userId: string | undefined,
  ): Promise<MessageCheck['space']> {
    const parsed = readOnly ? null : parseDocumentName(documentName);
    if (parsed?.kind !== 'space') return undefined;
    // Every connection has its person (authenticate.ts); without one, nothing is let in.
    if (!userId) throw new SyncRefusal('update_rejected');
    if (!spaceRules) return { userId, ruleOf: () => 'author' };
    let ruleOf = spaceRules.peek(parsed.spaceId);
    if (!ruleOf) {
      try {
        ruleOf = await spaceRules.load(parsed.spaceId);
      } catch (error) {
        logger.warn({ err: error, documentName }, "reading a space's record rules failed");
        throw new SyncRefusal('storage_unavailable');
      }
    }
    return { userId, ruleOf };
  }

  return {
    extensionName: 'pipit-update-guard',

    async beforeHandleMessage({
      documentName,
      document,
      update: message,
      connection,
      context,
    }: beforeHandleMessagePayload<Partial<ConnectionContext> | undefined>) {
      // Being deleted: nothing of it is written any more.
      if (ledger.isDiscarded(documentName)) throw new SyncRefusal('update_rejected');
      const space = await spaceOf(documentName, connection.readOnly, context?.userId);
      const entry = ledger.of(documentName);
      const userId = context?.userId;
      const writer =
        claimClients && userId && !connection.readOnly && hasSeveralWriters(documentName)
          ? { userId, ownerOf: (client: number) => entry.clients.owners.get(client) }
          : undefined;
      if (writer && claimClients) {
        claimTentative(entry.clients, { claim: claimClients, documentName, logger, now: now() });
      }
      const check = () =>
        checkMessage({
          documentName,
          message,
          document,
          usage: entry,
          recordsInFlight: entry.recordsInFlight,
          readOnly: connection.readOnly,
          limits,
          bounds,
          socketKey: context?.socketKey,
          logger,
          timings,
          space,
          writer,
        });
      let checked = check();
      if (checked && 'claim' in checked && writer && claimClients) {
        // A client id this document has not seen written under (a device that just opened it):
        // claimed, or found someone else's, in storage — then the update is judged again.
        await claimForWriter(entry.clients, {
          claim: claimClients,
          documentName,
          userId: writer.userId,
          clients: checked.claim,
          logger,
          now: now(),
        });
        checked = check();
      }
      if (checked && 'claim' in checked) throw new SyncRefusal('storage_unavailable');
      if (checked) ledger.reserve(documentName, connection, checked);
    },

    afterHandleMessage({ connection }: afterHandleMessagePayload) {
      ledger.applied(connection);
      return Promise.resolve();
    },
  };
}

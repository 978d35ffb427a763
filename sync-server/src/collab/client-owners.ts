import type { beforeHandleAwarenessPayload, Extension } from '@hocuspocus/server';
import * as Y from 'yjs';
import { parseDocumentName } from '@pipit/protocol';
import type { Logger } from '../logger';
import type { DecodedUpdate } from './yjs-integration';

/*
 * Who writes under which Yjs client id of a shared document. A Yjs client id is chosen
 * by the client and says nothing of who sent it: a space's member could write at another member's
 * next clocks — garbage, or an item in her own record — and when his edits made offline at those
 * clocks arrived, the server had "them" already and dropped them, his device showing them saved.
 * So the first account to write new parts under a client id in a document owns it there
 * (`DocumentStore.claimClients`: the database decides between instances), and parts under a
 * client id someone else owns are refused. A device gets a new client id each time it opens a
 * document, so an honest one only ever writes under its own.
 *
 * Checked for documents several people write: an app's (its owner and editors) and a shared
 * space's. A visitor's own data and a person's own documents have one writer.
 */

/** Whether updates to this document are checked against who owns each client id. */
export function hasSeveralWriters(documentName: string): boolean {
  const kind = parseDocumentName(documentName)?.kind;
  return kind === 'app' || kind === 'draft' || kind === 'space';
}

/** The client ids an update writes new parts under (items or garbage past what the document has). */
export function clientsWriting(decoded: DecodedUpdate, doc: Y.Doc): number[] {
  const clients = new Set<number>();
  for (const struct of decoded.structs) {
    if (struct instanceof Y.Skip) continue;
    const { client, clock } = struct.id;
    if (clock + struct.length > Y.getState(doc.store, client)) clients.add(client);
  }
  return [...clients];
}

/** What the update guard knows of a document's client ids: their owners read or claimed so far. */
export interface ClientWriter {
  /** The account sending the update. */
  userId: string;
  /** The owner of a client id in this document, as known now; undefined when not known yet. */
  ownerOf(client: number): string | undefined;
}

/** Claims client ids of a document for a person and answers their owners (storage's). */
export type ClaimClients = (
  name: string,
  userId: string,
  clients: number[],
) => Promise<Map<number, string>>;

/** What a loaded document knows of its client ids' owners (kept in its ledger entry). */
export interface ClientOwnership {
  /** Owners read or claimed so far; a client id taken for now is here too. */
  owners: Map<number, string>;
  /** Taken for now while storage could not be asked: claimed for good once it can be. */
  tentative: Set<number>;
  /** When to try claiming those again, at the earliest. */
  retryAt: number;
}

/** How often client ids taken for now are claimed again while storage cannot be reached. */
const RETRY_CLAIMS_MS = 5_000;

/**
 * Claims `clients` for `userId` in storage and notes their owners. While storage cannot be asked
 * (a database outage), the writer takes them for now on this instance: live editing goes on, as
 * acknowledgements only wait for the log; they are claimed for good as soon as storage answers
 * (`claimTentative`), and if someone else owns one by then, that person keeps it and the writer's
 * later parts under it are refused.
 */
export async function claimForWriter(
  ownership: ClientOwnership,
  options: {
    claim: ClaimClients;
    documentName: string;
    userId: string;
    clients: number[];
    logger: Logger;
    now: number;
  },
): Promise<void> {
  try {
    const owners = await options.claim(options.documentName, options.userId, options.clients);
    for (const [client, owner] of owners) ownership.owners.set(client, owner);
  } catch (error) {
    options.logger.warn(
      { err: error, documentName: options.documentName },
      'claiming client ids failed; taken for now on this instance',
    );
    for (const client of options.clients) {
      ownership.owners.set(client, options.userId);
      ownership.tentative.add(client);
    }
    ownership.retryAt = options.now + RETRY_CLAIMS_MS;
  }
}

/** Claims for good, in the background, the client ids taken for now (`claimForWriter`). */
export function claimTentative(
  ownership: ClientOwnership,
  options: { claim: ClaimClients; documentName: string; logger: Logger; now: number },
): void {
  if (ownership.tentative.size === 0 || options.now < ownership.retryAt) return;
  ownership.retryAt = options.now + RETRY_CLAIMS_MS;
  const byUser = new Map<string, number[]>();
  for (const client of ownership.tentative) {
    const userId = ownership.owners.get(client)!;
    byUser.set(userId, [...(byUser.get(userId) ?? []), client]);
  }
  for (const [userId, clients] of byUser) {
    options.claim(options.documentName, userId, clients).then(
      (owners) => {
        for (const [client, owner] of owners) {
          ownership.owners.set(client, owner);
          ownership.tentative.delete(client);
        }
      },
      (error: unknown) =>
        options.logger.warn(
          { err: error, documentName: options.documentName },
          'claiming client ids taken for now failed again',
        ),
    );
  }
}

/**
 * Presence names a device's client id before the device writes anything (its cursor, its name):
 * whoever saw it could claim it first, and the device's own edits would then be refused as
 * someone else's. So a client id announced in presence, on a document several people write, is
 * claimed for the announcing person before anyone else hears of it; presence under a client id
 * someone else owns is dropped.
 */
export function createPresenceClaims(options: {
  ownershipOf: (documentName: string) => ClientOwnership;
  claim: ClaimClients;
  logger: Logger;
  now?: () => number;
}): Extension {
  const now = options.now ?? Date.now;
  return {
    extensionName: 'pipit-presence-claims',

    async beforeHandleAwareness({
      connection,
      states,
      documentName,
      context,
    }: beforeHandleAwarenessPayload) {
      const userId = (context as { userId?: string } | undefined)?.userId;
      if (!connection || connection.readOnly || !userId || !hasSeveralWriters(documentName)) {
        return;
      }
      const ownership = options.ownershipOf(documentName);
      const unknown = [...states.keys()].filter((client) => !ownership.owners.has(client));
      if (unknown.length > 0) {
        await claimForWriter(ownership, {
          claim: options.claim,
          documentName,
          userId,
          clients: unknown,
          logger: options.logger,
          now: now(),
        });
      }
      for (const client of [...states.keys()]) {
        if (ownership.owners.get(client) !== userId) states.delete(client);
      }
    },
  };
}

import type {
  afterUnloadDocumentPayload,
  beforeHandleAwarenessPayload,
  Connection,
  Extension,
  onAuthenticatePayload,
  onDisconnectPayload,
} from '@hocuspocus/server';
import type { ConnectionContext } from './authenticate';
import type { ResourceBounds } from './resource-bounds';

/** Presence is a name, a colour and a selection: a few hundred bytes. */
export const MAX_AWARENESS_STATE_BYTES = 4_096;
/** Presence clients one connection may announce (a tab is one; a reload with the same id, two). */
export const MAX_AWARENESS_CLIENTS = 4;

type Context = Partial<ConnectionContext> | undefined;

/**
 * The resource bounds as Hocuspocus hooks: a document connection is admitted (after the access
 * policy granted it) only while its socket and its person are under their limits and the heap is
 * under its budget, and released when it ends.
 *
 * Presence is checked too. Awareness lives in memory until its connection closes, so each
 * connection may announce a few small states, no more; empty ones are dropped (Hocuspocus checks
 * each awareness message in a scratch `Awareness`, whose own empty local state would otherwise
 * join the document's under a new id every time). A presence client id belongs to the connection
 * that announced it first — another one announcing it (with a higher clock, so the owner's own
 * updates would be ignored) is dropped — and a state naming an account names the connection's own.
 */
export function createResourceBoundsExtension(bounds: ResourceBounds): Extension {
  /** Per connection: the presence client ids it announced. */
  const announced = new WeakMap<Connection, Set<number>>();
  /** Per document: which connection each presence client id belongs to. */
  const owners = new Map<string, Map<number, Connection>>();

  return {
    extensionName: 'pipit-resource-bounds',

    async onAuthenticate({ documentName, context }: onAuthenticatePayload) {
      const socketKey = (context as Context)?.socketKey;
      if (socketKey) await bounds.admit(socketKey, documentName);
    },

    onDisconnect({ documentName, context }: onDisconnectPayload) {
      const socketKey = (context as Context)?.socketKey;
      if (socketKey) bounds.release(socketKey, documentName);
      return Promise.resolve();
    },

    afterUnloadDocument({ documentName }: afterUnloadDocumentPayload) {
      bounds.unloaded(documentName);
      owners.delete(documentName);
      return Promise.resolve();
    },

    beforeHandleAwareness({
      connection,
      states,
      document,
      documentName,
      context,
    }: beforeHandleAwarenessPayload) {
      if (!connection) return Promise.resolve();
      const clients = announced.get(connection) ?? new Set<number>();
      announced.set(connection, clients);
      const byClient = owners.get(documentName) ?? new Map<number, Connection>();
      owners.set(documentName, byClient);
      // Ids whose connection is gone are free again.
      for (const [clientId, owner] of byClient) {
        if (!document.connections.has(owner)) byClient.delete(clientId);
      }
      const userId = (context as Context)?.userId;
      for (const [clientId, state] of states) {
        const owner = byClient.get(clientId);
        const named = (state as { user?: { id?: unknown } }).user?.id;
        const acceptable =
          Object.keys(state).length > 0 &&
          JSON.stringify(state).length <= MAX_AWARENESS_STATE_BYTES &&
          (clients.has(clientId) || clients.size < MAX_AWARENESS_CLIENTS) &&
          (owner === undefined || owner === connection) &&
          (named === undefined || named === userId);
        if (!acceptable) {
          states.delete(clientId);
          continue;
        }
        clients.add(clientId);
        byClient.set(clientId, connection);
      }
      return Promise.resolve();
    },
  };
}

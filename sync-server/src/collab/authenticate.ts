import type {
  beforeHandleAwarenessPayload,
  beforeHandleMessagePayload,
  connectedPayload,
  Extension,
  onAuthenticatePayload,
} from '@hocuspocus/server';
import { parseDocumentName } from '@pipit/protocol';
import type { Logger } from '../logger';
import type { DocumentAccess, DocumentGrant } from './access';
import { SyncRefusal } from './refusal';

/** What the socket tells Hocuspocus about itself, in every hook's context (websocket.ts). */
export interface SocketContext {
  /** This socket's own key for the resource bounds (resource-bounds.ts). */
  socketKey: string;
  /** Whose socket it is, from the session it was opened with. */
  socketUserId: string;
}

/** The context of an authenticated document connection. */
export type ConnectionContext = DocumentGrant &
  SocketContext & {
    /** The access decisions this instance had carried out when the grant was read (AccessEpoch). */
    grantedAt?: number;
  };

/**
 * How many access decisions (a person removed, a role changed, sessions ended, documents deleted)
 * this instance has carried out: a grant read before the last one may be stale.
 */
export interface AccessEpoch {
  current(): number;
  /** A decision is being carried out: grants read before it are checked again. */
  advance(): void;
}

export function createAccessEpoch(onAdvance: () => void = () => undefined): AccessEpoch {
  let epoch = 0;
  return {
    current: () => epoch,
    advance: () => {
      epoch += 1;
      onAdvance();
    },
  };
}

/**
 * Deny by default (docs/library-notes.md#hocuspocus-and-yjs): Hocuspocus serves any document name
 * unless a hook throws. Only the three document shapes of docs/architecture.md exist, and only a
 * grant from the access policy opens one. A viewer's connection is read-only on the server — for
 * document updates (Hocuspocus's readOnly) and for awareness, which readOnly does not cover: a
 * viewer cannot pose as someone else's cursor. (Viewers still see everyone's presence; they just
 * publish none.)
 */
export function createAuthentication(
  access: DocumentAccess,
  logger: Logger,
  epoch: AccessEpoch = createAccessEpoch(),
  /** A turn to check access in: the function that ends it, or null when the server is busy. */
  startOpening: () => (() => void) | null = () => () => undefined,
): Extension {
  /**
   * A connection whose grant was read before an access decision this instance carried out since,
   * checked against storage again. A decision closes the connections it finds open; one granted
   * before it but still loading its document was not among them (a member removed, or a
   * session ended, while her connection waited for a slow load kept writing). So each connection,
   * once it can be found, is checked again when a decision came in between: as it is established,
   * and before each message it sends until then. Null when it still holds; else why it goes.
   */
  async function staleGrant(
    documentName: string,
    context: Partial<ConnectionContext>,
    request: onAuthenticatePayload['request'],
  ): Promise<'forbidden' | 'role_changed' | null> {
    const now = epoch.current();
    if (context.grantedAt === undefined || context.grantedAt === now) return null;
    const document = parseDocumentName(documentName);
    let grant: DocumentGrant | null = null;
    try {
      grant = document ? await access.grantFor({ document, request }) : null;
    } catch (error) {
      if (!(error instanceof SyncRefusal)) throw new SyncRefusal('storage_unavailable');
    }
    if (!grant || grant.sessionId !== context.sessionId) return 'forbidden';
    if (grant.role !== context.role) return 'role_changed';
    context.grantedAt = now;
    return null;
  }

  return {
    extensionName: 'pipit-authentication',

    async onAuthenticate({
      documentName,
      request,
      connectionConfig,
      socketId,
    }: onAuthenticatePayload): Promise<DocumentGrant & { grantedAt: number }> {
      const document = parseDocumentName(documentName);
      let grant: DocumentGrant | null = null;
      let reason: SyncRefusal['reason'] = document ? 'forbidden' : 'unknown_document';
      // Told at once, before any read: the provider tries again a moment later.
      const endOpening = startOpening();
      if (!endOpening) throw new SyncRefusal('server_busy');
      try {
        grant = document ? await access.grantFor({ document, request }) : null;
      } catch (error) {
        if (error instanceof SyncRefusal) reason = error.reason;
        else {
          // Storage could not be asked (a database outage): not a refusal of the person, who is
          // told to wait — the provider tries again — rather than that they may not open it.
          logger.warn(
            { err: error, documentName: documentName.slice(0, 200), socketId },
            'checking access to a document failed',
          );
          throw new SyncRefusal('storage_unavailable');
        }
      } finally {
        endOpening();
      }
      if (!grant) {
        logger.info(
          { documentName: documentName.slice(0, 200), socketId, reason },
          'refused a document',
        );
        throw new SyncRefusal(reason);
      }
      connectionConfig.readOnly = grant.role === 'viewer';
      return { ...grant, grantedAt: epoch.current() };
    },

    async connected({ documentName, context, connection, request }: connectedPayload) {
      const stale = await staleGrant(documentName, context as Partial<ConnectionContext>, request);
      if (stale) connection.close({ code: 4403, reason: stale });
    },

    async beforeHandleMessage({
      documentName,
      context,
      connection,
    }: beforeHandleMessagePayload<Partial<ConnectionContext> | undefined>) {
      if (!context) return;
      const stale = await staleGrant(documentName, context, connection.request);
      if (stale) throw new SyncRefusal(stale);
    },

    // Throwing here would close the viewer's connection; emptying the update drops it instead.
    beforeHandleAwareness({ connection, states }: beforeHandleAwarenessPayload) {
      if (connection?.readOnly) states.clear();
      return Promise.resolve();
    },
  };
}

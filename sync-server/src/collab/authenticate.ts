import type {
  beforeHandleAwarenessPayload,
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
export type ConnectionContext = DocumentGrant & SocketContext;

/**
 * Deny by default (docs/library-notes.md#hocuspocus-and-yjs): Hocuspocus serves any document name
 * unless a hook throws. Only the three document shapes of docs/architecture.md exist, and only a
 * grant from the access policy opens one. A viewer's connection is read-only on the server — for
 * document updates (Hocuspocus's readOnly) and for awareness, which readOnly does not cover: a
 * viewer cannot pose as someone else's cursor. (Viewers still see everyone's presence; they just
 * publish none.)
 */
export function createAuthentication(access: DocumentAccess, logger: Logger): Extension {
  return {
    extensionName: 'pipit-authentication',

    async onAuthenticate({
      documentName,
      request,
      connectionConfig,
      socketId,
    }: onAuthenticatePayload): Promise<DocumentGrant> {
      const document = parseDocumentName(documentName);
      let grant: DocumentGrant | null = null;
      let reason: SyncRefusal['reason'] = document ? 'forbidden' : 'unknown_document';
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
      }
      if (!grant) {
        logger.info(
          { documentName: documentName.slice(0, 200), socketId, reason },
          'refused a document',
        );
        throw new SyncRefusal(reason);
      }
      connectionConfig.readOnly = grant.role === 'viewer';
      return grant;
    },

    // Throwing here would close the viewer's connection; emptying the update drops it instead.
    beforeHandleAwareness({ connection, states }: beforeHandleAwarenessPayload) {
      if (connection?.readOnly) states.clear();
      return Promise.resolve();
    },
  };
}

import type {
  beforeHandleAwarenessPayload,
  Extension,
  onAuthenticatePayload,
} from '@hocuspocus/server';
import { parseDocumentName } from '@pipit/protocol';
import type { Logger } from '../logger';
import type { DocumentAccess, DocumentRole } from './access';
import { SyncRefusal } from './refusal';

export interface ConnectionContext {
  role: DocumentRole;
}

/**
 * Deny by default (NOTES.md: Security): Hocuspocus serves any document name unless a hook throws.
 * Only the three document shapes of SPEC §2 exist, and only a role from the access policy opens one.
 * A viewer's connection is read-only on the server — for document updates (Hocuspocus's readOnly)
 * and for awareness, which readOnly does not cover: a viewer cannot pose as someone else's cursor.
 */
export function createAuthentication(access: DocumentAccess, logger: Logger): Extension {
  return {
    extensionName: 'pipit-authentication',

    async onAuthenticate({
      documentName,
      request,
      connectionConfig,
      socketId,
    }: onAuthenticatePayload): Promise<ConnectionContext> {
      const document = parseDocumentName(documentName);
      const role = document ? await access.roleFor({ document, request }) : null;
      if (!role) {
        const reason = document ? 'forbidden' : 'unknown-document';
        logger.info(
          { documentName: documentName.slice(0, 200), socketId, reason },
          'refused a document',
        );
        throw new SyncRefusal(reason);
      }
      connectionConfig.readOnly = role === 'viewer';
      return { role };
    },

    // Throwing here would close the viewer's connection; emptying the update drops it instead.
    beforeHandleAwareness({ connection, states }: beforeHandleAwarenessPayload) {
      if (connection?.readOnly) states.clear();
      return Promise.resolve();
    },
  };
}

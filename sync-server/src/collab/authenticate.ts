import type { Extension, onAuthenticatePayload } from '@hocuspocus/server';
import { parseDocumentName } from '@pipit/protocol';
import type { Logger } from '../logger';
import type { DocumentAccess, DocumentRole } from './access';

export interface ConnectionContext {
  role: DocumentRole;
}

/**
 * A refused document. Hocuspocus sends `reason` to the provider and prints any error that has a
 * message to the console; this one has none, so the refusal is logged once, as structured JSON.
 */
export class DocumentRefused extends Error {
  constructor(readonly reason: 'unknown-document' | 'forbidden') {
    super('');
    this.name = 'DocumentRefused';
  }
}

/**
 * Deny by default (NOTES.md: Security): Hocuspocus serves any document name unless a hook throws.
 * Only the three document shapes of SPEC §2 exist, and only a role from the access policy opens one;
 * viewers get a read-only connection, enforced by the server.
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
        throw new DocumentRefused(reason);
      }
      connectionConfig.readOnly = role === 'viewer';
      return { role };
    },
  };
}

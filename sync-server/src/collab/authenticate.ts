import type { Extension, onAuthenticatePayload } from '@hocuspocus/server';
import { parseDocumentName } from '@pipit/protocol';
import type { DocumentAccess, DocumentRole } from './access';

export interface ConnectionContext {
  role: DocumentRole;
}

/**
 * Deny by default (NOTES.md: Security): Hocuspocus serves any document name unless a hook throws.
 * Only the three document shapes of SPEC §2 exist, and only a role from the access policy opens one;
 * viewers get a read-only connection, enforced by the server.
 */
export function createAuthentication(access: DocumentAccess): Extension {
  return {
    extensionName: 'pipit-authentication',
    async onAuthenticate({
      documentName,
      request,
      connectionConfig,
    }: onAuthenticatePayload): Promise<ConnectionContext> {
      const document = parseDocumentName(documentName);
      if (!document) throw new Error('unknown document');
      const role = await access.roleFor({ document, request });
      if (!role) throw new Error('forbidden');
      connectionConfig.readOnly = role === 'viewer';
      return { role };
    },
  };
}

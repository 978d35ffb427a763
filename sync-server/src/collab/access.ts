import type { DocumentName } from '@pipit/protocol';

export type DocumentRole = 'owner' | 'editor' | 'viewer';

/**
 * Who may open which document (SPEC §8). The websocket is deny-by-default: a connection gets a
 * document only when the policy names a role, and a viewer's connection is read-only on the server.
 */
export interface DocumentAccess {
  roleFor(args: { document: DocumentName; request: Request }): Promise<DocumentRole | null>;
}

/**
 * Until accounts and app ownership exist there is nobody to grant a document to, so every document
 * is refused. The accounts and authoring work replaces this with the real policy.
 */
export const denyAllDocuments: DocumentAccess = {
  roleFor: () => Promise.resolve(null),
};

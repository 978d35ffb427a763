import { type DocumentName, documentName } from '@pipit/protocol';

/**
 * Starts reading an account's document from this device before anything renders it (the editor's
 * route, an installed app's start), in parallel with what those wait for (documents.ts,
 * openDocumentAhead). The sync layer loads for it here, so a page's first chunk stays without it.
 */
export function openAccountDocumentAhead(doc: DocumentName, accountId: string): void {
  import('./documents')
    .then(({ openDocumentAhead }) =>
      openDocumentAhead(documentName(doc), { kind: 'account', accountId }),
    )
    .catch((error: unknown) => console.warn('Could not read this app from this device:', error));
}

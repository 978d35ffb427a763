import { isId } from './ids';

/**
 * Yjs documents by name (docs/architecture.md): `app/{appId}` the definition, `user/{userId}` the
 * private index, `data/{appId}/{userId}` a visitor's private data for one app, `space/{spaceId}` the
 * records of an app's shared collections that the members of one space share
 * (docs/product/spaces.md), `draft/{appId}/{draftId}` a draft of an app's definition
 * (docs/product/drafts.md).
 */
export type DocumentName =
  | { kind: 'app'; appId: string }
  | { kind: 'draft'; appId: string; draftId: string }
  | { kind: 'user'; userId: string }
  | { kind: 'data'; appId: string; userId: string }
  | { kind: 'space'; spaceId: string };

/** The documents that hold records: a person's data of one app, and a space's. */
export type RecordsDocument = Extract<DocumentName, { kind: 'data' | 'space' }>;

export function documentName(doc: DocumentName): string {
  switch (doc.kind) {
    case 'app':
      return `app/${doc.appId}`;
    case 'draft':
      return `draft/${doc.appId}/${doc.draftId}`;
    case 'user':
      return `user/${doc.userId}`;
    case 'data':
      return `data/${doc.appId}/${doc.userId}`;
    case 'space':
      return `space/${doc.spaceId}`;
  }
}

/** Parses a document name; anything that is not exactly one of the five shapes is null. */
export function parseDocumentName(name: string): DocumentName | null {
  const parts = name.split('/');
  const [kind, a, b] = parts;
  if (kind === 'app' && parts.length === 2 && a && isId(a)) return { kind, appId: a };
  if (kind === 'user' && parts.length === 2 && a && isId(a)) return { kind, userId: a };
  if (kind === 'space' && parts.length === 2 && a && isId(a)) return { kind, spaceId: a };
  if (kind === 'data' && parts.length === 3 && a && b && isId(a) && isId(b)) {
    return { kind, appId: a, userId: b };
  }
  if (kind === 'draft' && parts.length === 3 && a && b && isId(a) && isId(b)) {
    return { kind, appId: a, draftId: b };
  }
  return null;
}

/**
 * How a client's provider addresses its document on a socket (Hocuspocus's `sessionAwareness`):
 * by the document's name and a session of the provider's own. The browser carries all its
 * documents on one socket and sometimes closes a document and opens it again at once (its refused
 * changes removed, a retry after an error). Addressed by name alone, the new provider's
 * authentication reaches the old connection while that one still handles its last messages, and
 * is dropped: the document would never sync again in that tab.
 */
export const SYNC_PROVIDER_ADDRESSING = { sessionAwareness: true } as const;

/**
 * The websocket endpoint for Yjs sync (the Hocuspocus protocol), on the same origin as the app;
 * the session cookie authenticates it.
 */
export const SYNC_PATH = '/api/sync';

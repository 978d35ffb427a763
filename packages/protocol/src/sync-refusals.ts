/**
 * Why the server refused a document on the sync socket, or closed its connection: the `reason`
 * the Hocuspocus provider receives. The client words each one (client/sync/documents.ts), so the
 * two sides share this list.
 */
export type SyncRefusalReason =
  /** The name is not a document's (docs/architecture.md#the-documents). */
  | 'unknown-document'
  | 'forbidden'
  | 'not-found'
  /** The app was deleted forever: nothing of it syncs again. */
  | 'deleted'
  | 'storage-unavailable'
  /** The server keeps a document with unstored changes loaded; never sent to a client. */
  | 'unsaved-changes'
  /** The server's memory is past its budget: no document is loaded until it is not. */
  | 'server-busy'
  /** The person (or this socket) holds as many documents open, or as much in them, as one may. */
  | 'too-many-documents';

/** Why the server closed one document's connection over an update it sent. */
export type UpdateRefusalReason =
  | 'update_rejected'
  /** The document would pass its size or item limit. */
  | 'document_too_large'
  /** The person's open documents would pass their size or item limit together. */
  | 'over_capacity'
  /** So many of the person's messages were refused lately that theirs wait a minute. */
  | 'slow_down'
  /** The server's memory is past its budget: no document grows until it is not. */
  | 'server_busy';

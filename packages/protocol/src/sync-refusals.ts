/**
 * Why the server refused a document on the sync socket, or closed its connection: the `reason`
 * the Hocuspocus provider receives, with the websocket close code it comes with. One list, spelled
 * one way (snake_case, like the API's error codes): the server sends these and nothing else, and
 * the client words each one (client/sync/core/documents.ts).
 */
export const SYNC_CLOSE_REASONS = {
  /** The name is not a document's (docs/architecture.md#the-documents). */
  unknown_document: 4404,
  /** The person may not open this document (never could, or lost access just now). */
  forbidden: 4403,
  /** The app is not registered on the server (yet). */
  not_found: 4404,
  /** The app was deleted forever: nothing of it syncs again. */
  deleted: 4410,
  /** The person's role on the app changed: the provider connects again with the new one. */
  role_changed: 4403,
  /** Storage could not be read or written: the provider tries again (its edits stay on the device). */
  storage_unavailable: 4503,
  /** The server keeps a document with unstored changes loaded; never sent to a client. */
  unsaved_changes: 4503,
  /** The server's memory is past its budget: nothing loads or grows until it is not. */
  server_busy: 4503,
  /** The person (or this socket) holds as many documents open, or as much in them, as one may. */
  too_many_documents: 4429,
  /** An update that does not decode, or is not one Pipit's documents can hold. */
  update_rejected: 4400,
  /** The document would pass its size or item limit. */
  document_too_large: 4413,
  /** The person's open documents would pass their size or item limit together. */
  over_capacity: 4429,
  /** So many of the person's messages were refused lately that theirs wait a minute. */
  slow_down: 4429,
} as const;

export type SyncCloseReason = keyof typeof SYNC_CLOSE_REASONS;

/** Refusals of a document as a whole (on opening it, or later for the whole connection). */
export type SyncRefusalReason = Exclude<
  SyncCloseReason,
  'update_rejected' | 'document_too_large' | 'over_capacity' | 'slow_down'
>;

/** Why the server closed one document's connection over an update it sent. */
export type UpdateRefusalReason = Extract<
  SyncCloseReason,
  'update_rejected' | 'document_too_large' | 'over_capacity' | 'slow_down' | 'server_busy'
>;

/** Whether a reason the provider handed over (any string) is one of the server's. */
export function isSyncCloseReason(reason: string): reason is SyncCloseReason {
  return Object.hasOwn(SYNC_CLOSE_REASONS, reason);
}

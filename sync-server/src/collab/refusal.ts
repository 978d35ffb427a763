/**
 * Why the server refused or dropped something on the sync socket, as the provider receives it.
 * Hocuspocus sends `reason` to the client and prints every hook error that has a message; these
 * carry none, so each is logged once by Pipit, as structured JSON, where it happens.
 */
export type SyncRefusalReason =
  | 'unknown-document'
  | 'forbidden'
  | 'not-found'
  // The app was deleted forever: nothing of it syncs again.
  | 'deleted'
  | 'storage-unavailable'
  | 'unsaved-changes'
  // The server's memory is past its budget: no document is loaded until it is not (resource-limits.ts).
  | 'server-busy'
  // The person (or this socket) holds as many documents open, or as much in them, as one may.
  | 'too-many-documents';

export class SyncRefusal extends Error {
  constructor(readonly reason: SyncRefusalReason) {
    super('');
    this.name = 'SyncRefusal';
  }
}

/**
 * Closes one document's connection over an update it sent (Hocuspocus closes the connection with
 * this `code` and `reason` and tells the provider). The rest of the socket, and the server, go on.
 */
export type UpdateRefusalReason =
  | 'update_rejected'
  // The document would pass its size or item limit.
  | 'document_too_large'
  // The person's open documents would pass their size or item limit together.
  | 'over_capacity'
  // So many of the person's messages were refused lately that theirs wait a minute.
  | 'slow_down'
  // The server's memory is past its budget: no document grows until it is not.
  | 'server_busy';

const UPDATE_REFUSAL_CODES: Record<UpdateRefusalReason, number> = {
  update_rejected: 4400,
  document_too_large: 4413,
  over_capacity: 4429,
  slow_down: 4429,
  server_busy: 4503,
};

export class UpdateRefusal extends Error {
  readonly code: number;
  constructor(readonly reason: UpdateRefusalReason) {
    super('');
    this.name = 'UpdateRefusal';
    this.code = UPDATE_REFUSAL_CODES[reason];
  }
}

/**
 * Why the server refused or dropped something on the sync socket, as the provider receives it.
 * Hocuspocus sends `reason` to the client and prints every hook error that has a message; these
 * carry none, so each is logged once by Pipit, as structured JSON, where it happens.
 */
export type SyncRefusalReason =
  'unknown-document' | 'forbidden' | 'not-found' | 'storage-unavailable' | 'unsaved-changes';

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
export type UpdateRefusalReason = 'update_rejected' | 'document_too_large';

export class UpdateRefusal extends Error {
  readonly code: number;
  constructor(readonly reason: UpdateRefusalReason) {
    super('');
    this.name = 'UpdateRefusal';
    this.code = reason === 'document_too_large' ? 4413 : 4400;
  }
}

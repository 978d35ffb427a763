import type { SyncRefusalReason, UpdateRefusalReason } from '@pipit/protocol';

/**
 * Why the server refused or dropped something on the sync socket, as the provider receives it.
 * Hocuspocus sends `reason` to the client and prints every hook error that has a message; these
 * carry none, so each is logged once by Pipit, as structured JSON, where it happens.
 */
export class SyncRefusal extends Error {
  constructor(readonly reason: SyncRefusalReason) {
    super('');
    this.name = 'SyncRefusal';
  }
}

const UPDATE_REFUSAL_CODES: Record<UpdateRefusalReason, number> = {
  update_rejected: 4400,
  document_too_large: 4413,
  over_capacity: 4429,
  slow_down: 4429,
  server_busy: 4503,
};

/**
 * Closes one document's connection over an update it sent (Hocuspocus closes the connection with
 * this `code` and `reason` and tells the provider). The rest of the socket, and the server, go on.
 */
export class UpdateRefusal extends Error {
  readonly code: number;
  constructor(readonly reason: UpdateRefusalReason) {
    super('');
    this.name = 'UpdateRefusal';
    this.code = UPDATE_REFUSAL_CODES[reason];
  }
}

/**
 * Why the server refused or dropped something on the sync socket, as the provider receives it.
 * Hocuspocus sends `reason` to the client and prints every hook error that has a message; these
 * carry none, so each is logged once by Pipit, as structured JSON, where it happens.
 */
export type SyncRefusalReason =
  'unknown-document' | 'forbidden' | 'storage-unavailable' | 'unsaved-changes';

export class SyncRefusal extends Error {
  constructor(readonly reason: SyncRefusalReason) {
    super('');
    this.name = 'SyncRefusal';
  }
}

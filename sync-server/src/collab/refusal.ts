import { SYNC_CLOSE_REASONS, type SyncCloseReason } from '@pipit/protocol';

/**
 * Why the server refused or dropped something on the sync socket, as the provider receives it:
 * one of @pipit/protocol's close reasons, with its close code. Thrown from a hook, it closes that
 * document's connection (or refuses to open it); the rest of the socket, and the server, go on.
 * Hocuspocus prints every hook error that has a message; these carry none, so each is logged once
 * by Pipit, as structured JSON, where it happens. It also prints the error behind each connection
 * it closes, with its stack: these carry none, so that is one short line however often a client
 * provokes it.
 */
export class SyncRefusal extends Error {
  readonly code: number;
  constructor(readonly reason: SyncCloseReason) {
    super('');
    this.name = 'SyncRefusal';
    this.code = SYNC_CLOSE_REASONS[reason];
    this.stack = `${this.name}: ${reason}`;
  }
}

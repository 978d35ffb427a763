import type { LocalApp } from './local-db';
import { SYNC_ERROR_MESSAGES, type SyncState } from './sync-state';

export type SyncBadgeTone = 'ok' | 'busy' | 'offline' | 'neutral' | 'error';

const changes = (n: number) => `${n} ${n === 1 ? 'change' : 'changes'}`;

/**
 * A document's sync state in words (docs/product/states.md). "Saved" appears only when the server
 * acknowledged every local change (`saved`); every other state says what is true instead.
 */
export function describeSync(state: SyncState): { text: string; tone: SyncBadgeTone } {
  switch (state.kind) {
    case 'saved':
      return { text: 'Saved', tone: 'ok' };
    case 'syncing':
      return {
        text: state.pending > 0 ? `Syncing · ${state.pending} pending` : 'Syncing…',
        tone: 'busy',
      };
    case 'offline':
      return {
        text: state.pending > 0 ? `Offline · ${changes(state.pending)} on this device` : 'Offline',
        tone: 'offline',
      };
    case 'connecting':
      return { text: 'Connecting…', tone: 'busy' };
    case 'read-only':
      return { text: 'Read-only', tone: 'neutral' };
    case 'local':
      return { text: 'On this device only', tone: 'neutral' };
    case 'error':
      return { text: `Error: ${SYNC_ERROR_MESSAGES[state.why]}`, tone: 'error' };
  }
}

/**
 * An app's sync state in a list, from what this device knows without opening it: changes the
 * server has not acknowledged are counted on the device; none means the server has them all.
 */
export function listedSync(app: LocalApp, online: boolean): SyncState {
  if (app.registrationRefused) {
    const why = app.registrationRefused === 'limit_reached' ? 'plan-limit' : 'rejected';
    return { kind: 'error', why };
  }
  if (!app.registered || app.pending > 0 || app.archiveDue) {
    // An app the server does not know yet, or an archive choice it has not taken, is one change.
    const pending = Math.max(app.pending, !app.registered || app.archiveDue ? 1 : 0);
    return online ? { kind: 'syncing', pending } : { kind: 'offline', pending };
  }
  return { kind: 'saved' };
}

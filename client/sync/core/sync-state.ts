import { LIMITS } from '@pipit/app-definition';
import { groupedCount } from '@pipit/protocol';

/**
 * The sync state of one document as a person sees it (docs/product/states.md). `saved` means the
 * server stored every local change: Pipit's server writes an update to its durable log before it
 * acknowledges it, so the provider's acknowledgement count is proof, not a hope.
 */
export type SyncState =
  /** Kept on this device only; `pending` changes are not stored on it yet (a first visit's). */
  | { kind: 'local'; pending?: number }
  | { kind: 'offline'; pending: number }
  | { kind: 'connecting'; pending: number }
  | { kind: 'syncing'; pending: number }
  | { kind: 'saved' }
  | { kind: 'read-only' }
  | { kind: 'error'; why: SyncErrorReason };

/**
 * Why a document cannot sync. `forbidden`: access was removed; `not-registered`: the server does
 * not know the app yet (it registers itself when online); `too-large`: over the size limit;
 * `storage-unavailable`: the server's storage is down (it retries); `busy`: the server is short of
 * memory, or opening as much as it takes at once; `too-much-open`: the person has as much open at
 * once as one may (both retried in a while); `rejected`: the server closed the connection over an
 * update it refused.
 */
export type SyncErrorReason =
  | 'forbidden'
  | 'not-registered'
  | 'deleted'
  | 'plan-limit'
  | 'too-large'
  | 'storage-unavailable'
  | 'busy'
  | 'too-much-open'
  | 'rejected';

/** Reasons that pass by themselves: the document tries again after a while, without a reload. */
export const PASSING_SYNC_ERRORS: ReadonlySet<SyncErrorReason> = new Set([
  'storage-unavailable',
  'busy',
  'too-much-open',
]);

export const SYNC_ERROR_MESSAGES: Record<SyncErrorReason, string> = {
  forbidden: 'You no longer have access to this app. Ask its owner to invite you again.',
  'not-registered':
    'This app has not reached the server yet. It registers itself when you are online.',
  'plan-limit':
    'You have as many apps as your plan allows, so this one stays on this device. Delete an archived app to sync it.',
  deleted:
    'This app was deleted for good by its owner, so nothing of it syncs any more. What is on this device stays here until you remove it.',
  'too-large': `This app has grown past the size limit (${LIMITS.documentBytes / (1024 * 1024)} MB, or ${groupedCount(LIMITS.documentItems)} parts, its history included), so new changes stay on this device. Export it as JSON and import it as a new app to carry on with a fresh history.`,
  'storage-unavailable':
    'The server cannot store changes right now. Pipit keeps trying; your edits are safe on this device.',
  busy: 'The server is busy right now. Your edits are safe on this device; Pipit keeps trying.',
  'too-much-open':
    'You have a lot open at once, so this waits its turn. Close a few tabs; Pipit tries again in a minute. Your edits are safe on this device.',
  rejected: 'The server refused a change from this device. Reload the page to sync again.',
};

/** Whether two sync states say the same thing (they are rebuilt on every notice). */
export function sameSync(a: SyncState, b: SyncState): boolean {
  return (
    a.kind === b.kind &&
    ('pending' in a ? (a.pending ?? 0) : 0) === ('pending' in b ? (b.pending ?? 0) : 0) &&
    ('why' in a ? a.why : null) === ('why' in b ? b.why : null)
  );
}

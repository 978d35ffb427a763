/**
 * The sync state of one document as a person sees it (SPEC §6). `saved` means the server stored
 * every local change: Pipit's server writes an update to its durable log before it acknowledges it,
 * so the provider's acknowledgement count is proof, not a hope.
 */
export type SyncState =
  | { kind: 'local' }
  | { kind: 'offline'; pending: number }
  | { kind: 'connecting'; pending: number }
  | { kind: 'syncing'; pending: number }
  | { kind: 'saved' }
  | { kind: 'read-only' }
  | { kind: 'error'; why: SyncErrorReason };

/**
 * Why a document cannot sync. `forbidden`: access was removed; `not-registered`: the server does
 * not know the app yet (it registers itself when online); `too-large`: over the 5 MB limit;
 * `storage-unavailable`: the server's storage is down (it retries); `rejected`: the server closed the
 * connection over an update it refused.
 */
export type SyncErrorReason =
  'forbidden' | 'not-registered' | 'too-large' | 'storage-unavailable' | 'rejected';

export const SYNC_ERROR_MESSAGES: Record<SyncErrorReason, string> = {
  forbidden: 'You no longer have access to this app. Ask its owner to invite you again.',
  'not-registered':
    'This app has not reached the server yet. It registers itself when you are online.',
  'too-large':
    'This app is over the 5 MB limit, so new changes stay on this device. Remove something large to sync again.',
  'storage-unavailable':
    'The server cannot store changes right now. Pipit keeps trying; your edits are safe on this device.',
  rejected: 'The server refused a change from this device. Reload the page to sync again.',
};

/** Whether two sync states say the same thing (they are rebuilt on every notice). */
export function sameSync(a: SyncState, b: SyncState): boolean {
  return (
    a.kind === b.kind &&
    ('pending' in a ? a.pending : 0) === ('pending' in b ? b.pending : 0) &&
    ('why' in a ? a.why : null) === ('why' in b ? b.why : null)
  );
}

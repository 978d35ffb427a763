import { PASSING_SYNC_ERRORS, type SyncState } from '../core/sync-state';

/** What the visitor's data sync state means to them, in a few words, and at more length. */
export function describeDataSync(sync: SyncState): {
  label: string;
  detail: string;
  tone: SyncIndicatorTone;
} {
  switch (sync.kind) {
    case 'local':
      if (sync.pending)
        return {
          label: 'Saving on this device…',
          detail: 'Your changes are being stored on this device. Keep the app open a moment.',
          tone: 'busy',
        };
      return {
        label: 'Saved on this device',
        detail:
          'Your data is kept on this device. Sign in to Pipit to have it on all your devices.',
        tone: 'quiet',
      };
    case 'saved':
      return { label: 'Saved', detail: 'Everything is saved to your account.', tone: 'quiet' };
    case 'offline':
      return {
        label: 'Saved on this device, will sync when online',
        detail: 'You’re offline. Your changes are safe on this device and sync when you’re back.',
        tone: 'offline',
      };
    case 'connecting':
      return sync.pending > 0
        ? {
            label: `Syncing ${sync.pending}`,
            detail: 'Your changes are safe on this device and are on their way to your account.',
            tone: 'busy',
          }
        : { label: 'Connecting…', detail: 'Connecting to your account.', tone: 'busy' };
    case 'syncing':
      return {
        label: sync.pending > 0 ? `Syncing ${sync.pending}` : 'Syncing…',
        detail: 'Your changes are safe on this device and are on their way to your account.',
        tone: 'busy',
      };
    case 'read-only':
      return { label: 'Read only', detail: 'Changes here are not saved.', tone: 'problem' };
    case 'error':
      return {
        label: 'Not syncing',
        detail:
          sync.why === 'deleted'
            ? 'Its creator deleted this app, so your data for it no longer syncs. It stays on this device.'
            : sync.why === 'forbidden' || sync.why === 'not-registered'
              ? 'This app is no longer available to your account, so new changes stay on this device.'
              : sync.why === 'too-large'
                ? 'Your data for this app has grown past the size limit, so new changes stay on this device.'
                : PASSING_SYNC_ERRORS.has(sync.why)
                  ? 'Your changes are safe on this device. The server can’t take them right now; syncing resumes by itself.'
                  : 'Your changes are safe on this device. Reload the app to try syncing again.',
        tone: 'problem',
      };
  }
}

export type SyncIndicatorTone = 'quiet' | 'busy' | 'offline' | 'problem';

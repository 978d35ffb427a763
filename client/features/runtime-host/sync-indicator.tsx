import { PASSING_SYNC_ERRORS, type SyncState } from '../../sync/sync-state';
import './sync-indicator.css';

/** What the visitor's data sync state means to them, in a few words, and at more length. */
export function describeDataSync(sync: SyncState): { label: string; detail: string; tone: Tone } {
  switch (sync.kind) {
    case 'local':
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

type Tone = 'quiet' | 'busy' | 'offline' | 'problem';

/**
 * A small, unobtrusive note of where the visitor's data is: "Saved", "Saved on this device, will
 * sync when online", "Syncing 3". Not a live region: it changes after every edit, and announcing
 * each "Syncing 1 … Saved" would talk over the app; it is there to be read when wanted.
 */
export function SyncIndicator({ sync }: { sync: SyncState }) {
  const { label, detail, tone } = describeDataSync(sync);
  return (
    <p className={`sync-indicator sync-indicator--${tone}`} title={detail}>
      <span className="sync-indicator__dot" aria-hidden="true" />
      <span className="sync-indicator__label">{label}</span>
      <span className="visually-hidden">. {detail}</span>
    </p>
  );
}

import { SYNC_ERROR_MESSAGES, type SyncState } from '../../sync/sync-state';
import './sync-badge.css';

type Tone = 'ok' | 'busy' | 'offline' | 'neutral' | 'error';

const changes = (n: number) => `${n} ${n === 1 ? 'change' : 'changes'}`;

/**
 * A document's sync state in words (docs/product/states.md). "Saved" appears only when the server
 * acknowledged every local change (`saved`); every other state says what is true instead.
 */
function describeSync(state: SyncState): { text: string; tone: Tone } {
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

/** The sync state of one app as a small badge; changes are announced politely. */
export function SyncBadge({ state }: { state: SyncState }) {
  const { text, tone } = describeSync(state);
  return (
    <span className={`sync-badge sync-badge--${tone}`} role="status" aria-live="polite">
      <span className="sync-badge__dot" aria-hidden="true" />
      <span className="sync-badge__text">{text}</span>
    </span>
  );
}

import './sync-badge.css';

/** How a sync state reads in a badge (client/sync/core/sync-status.ts words it). */
export type SyncBadgeTone = 'ok' | 'busy' | 'offline' | 'neutral' | 'error';

/** The sync state of one app as a small badge; changes are announced politely. */
export function SyncBadge({ text, tone }: { text: string; tone: SyncBadgeTone }) {
  return (
    <span className={`sync-badge sync-badge--${tone}`} role="status" aria-live="polite">
      <span className="sync-badge__dot" aria-hidden="true" />
      <span className="sync-badge__text">{text}</span>
    </span>
  );
}

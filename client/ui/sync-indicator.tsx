import './sync-indicator.css';

/** How the visitor's data sync state reads (client/sync/core/sync-status.ts words it). */
export type SyncIndicatorTone = 'quiet' | 'busy' | 'offline' | 'problem';

/**
 * A small, unobtrusive note of where the visitor's data is: "Saved", "Saved on this device, will
 * sync when online", "Syncing 3". Not a live region: it changes after every edit, and announcing
 * each "Syncing 1 … Saved" would talk over the app; it is there to be read when wanted.
 */
export function SyncIndicator({
  label,
  detail,
  tone,
}: {
  label: string;
  detail: string;
  tone: SyncIndicatorTone;
}) {
  return (
    <p className={`sync-indicator sync-indicator--${tone}`} title={detail}>
      <span className="sync-indicator__dot" aria-hidden="true" />
      <span className="sync-indicator__label">{label}</span>
      <span className="visually-hidden">. {detail}</span>
    </p>
  );
}

import { Button } from '../../ui/button';
import './runtime-host.css';

/**
 * "A new version is available": offered, never forced. Polite to screen readers (it does not
 * interrupt), and it takes no focus, so someone typing keeps typing; Update switches to the new
 * version in place — the person's data is a separate document, untouched by the switch.
 */
export function UpdateBanner({
  version,
  onUpdate,
  onDismiss,
}: {
  version: number | null;
  onUpdate: () => void;
  onDismiss: () => void;
}) {
  return (
    <div className="app-host__update" role="status" aria-live="polite">
      <p className="app-host__update-text">
        New version available{version !== null ? ` (version ${version})` : ''}. Your data stays as
        it is.
      </p>
      <div className="app-host__update-actions">
        <Button size="small" onClick={onUpdate}>
          Update
        </Button>
        <Button size="small" variant="ghost" onClick={onDismiss}>
          Later
        </Button>
      </div>
    </div>
  );
}

import type { ReactNode } from 'react';
import './toast.css';

/** A message pinned to the bottom of the screen, announced politely, with its actions. */
export function Toast({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  return (
    <div className="toast-region">
      <div className="toast" role="status" aria-live="polite">
        <p className="toast__text">{children}</p>
        {actions ? <div className="toast__actions">{actions}</div> : null}
      </div>
    </div>
  );
}

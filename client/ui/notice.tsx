import type { ReactNode } from 'react';
import './notice.css';

export type NoticeTone = 'info' | 'warning' | 'danger' | 'success' | 'offline';

/**
 * Line icons drawn in the notice's own text colour (emoji render as empty boxes where the system
 * has no emoji font, and cannot follow the tone's colour).
 */
const ICON_PATHS: Record<NoticeTone, string> = {
  info: 'M12 11v6M12 7.5v.01',
  warning:
    'M12 9v4M12 16.5v.01M10.3 4.2 2.6 18a2 2 0 0 0 1.7 3h15.4a2 2 0 0 0 1.7-3L13.7 4.2a2 2 0 0 0-3.4 0Z',
  danger: 'M15 9l-6 6M9 9l6 6',
  success: 'M8 12.5l2.8 2.8L16.5 9.5',
  offline:
    'M2 2l20 20M8.5 16.5a5 5 0 0 1 7 0M5 12.9a10 10 0 0 1 4.2-2.5M19 12.9a10 10 0 0 0-2.3-1.6M2 8.8a15 15 0 0 1 4.2-2.7M22 8.8A15 15 0 0 0 10.7 5M12 20h.01',
};
const CIRCLED: ReadonlySet<NoticeTone> = new Set(['info', 'danger', 'success']);

function NoticeIcon({ tone }: { tone: NoticeTone }) {
  return (
    <svg
      className="notice__icon"
      aria-hidden="true"
      viewBox="0 0 24 24"
      width="20"
      height="20"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      {CIRCLED.has(tone) ? <circle cx="12" cy="12" r="10" /> : null}
      <path d={ICON_PATHS[tone]} />
    </svg>
  );
}

interface NoticeProps {
  tone?: NoticeTone;
  title?: ReactNode;
  children?: ReactNode;
  /** `alert` interrupts a screen reader; use it only for errors that need attention now. */
  live?: 'polite' | 'alert' | 'off';
}

/** An inline message about the state of things: what happened and what to do next. */
export function Notice({ tone = 'info', title, children, live = 'polite' }: NoticeProps) {
  const role = live === 'alert' ? 'alert' : live === 'polite' ? 'status' : undefined;
  return (
    <div className={`notice notice--${tone}`} role={role}>
      <NoticeIcon tone={tone} />
      <div className="notice__content">
        {title ? <p className="notice__title">{title}</p> : null}
        {children}
      </div>
    </div>
  );
}

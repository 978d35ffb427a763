import type { ReactNode } from 'react';
import './notice.css';

export type NoticeTone = 'info' | 'warning' | 'danger' | 'success' | 'offline';

const ICONS: Record<NoticeTone, string> = {
  info: 'ℹ️',
  warning: '⚠️',
  danger: '⛔',
  success: '✅',
  offline: '📴',
};

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
      <span className="notice__icon" aria-hidden="true">
        {ICONS[tone]}
      </span>
      <div className="notice__content">
        {title ? <p className="notice__title">{title}</p> : null}
        {children}
      </div>
    </div>
  );
}

import type { ReactNode } from 'react';
import './empty-state.css';

interface EmptyStateProps {
  icon?: string;
  title: ReactNode;
  children?: ReactNode;
  action?: ReactNode;
  /** Heading level of the title, to keep the page outline right. */
  level?: 2 | 3;
}

/** What a list or screen shows when there is nothing in it yet, and what to do about it. */
export function EmptyState({ icon, title, children, action, level = 2 }: EmptyStateProps) {
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <div className="empty-state">
      {icon ? (
        <span className="empty-state__icon" aria-hidden="true">
          {icon}
        </span>
      ) : null}
      <Heading className="empty-state__title">{title}</Heading>
      {children ? <div className="empty-state__body">{children}</div> : null}
      {action ? <div className="empty-state__action">{action}</div> : null}
    </div>
  );
}

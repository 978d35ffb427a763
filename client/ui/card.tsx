import type { ReactNode } from 'react';
import './card.css';

interface CardProps {
  title?: ReactNode;
  /** A decorative emoji, glyph or picture (an app's AppIcon); hidden from assistive technology. */
  icon?: ReactNode;
  footer?: ReactNode;
  children?: ReactNode;
  /** Heading level of the title, to keep the page outline right. */
  level?: 2 | 3;
}

export function Card({ title, icon, footer, children, level = 3 }: CardProps) {
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <div className="card">
      {icon ? (
        <span className="card__icon" aria-hidden="true">
          {icon}
        </span>
      ) : null}
      {title ? <Heading className="card__title">{title}</Heading> : null}
      {children ? <div className="card__body">{children}</div> : null}
      {footer ? <div className="card__footer">{footer}</div> : null}
    </div>
  );
}

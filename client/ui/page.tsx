import type { ReactNode } from 'react';
import './page.css';

interface PageProps {
  title: ReactNode;
  eyebrow?: ReactNode;
  lead?: ReactNode;
  actions?: ReactNode;
  /** `content` for app screens, `prose` for reading, `narrow` for forms. */
  width?: 'content' | 'prose' | 'narrow';
  children?: ReactNode;
}

/** A page's frame: one h1, an optional lead and actions, then the content. */
export function Page({ title, eyebrow, lead, actions, width = 'content', children }: PageProps) {
  const widthClass = width === 'content' ? '' : ` page--${width}`;
  return (
    <div className={`page container${widthClass}`}>
      <header className="page__header">
        <div className="page__heading">
          {eyebrow ? <p className="page__eyebrow">{eyebrow}</p> : null}
          <h1>{title}</h1>
          {lead ? <p className="page__lead">{lead}</p> : null}
        </div>
        {actions ? <div className="page__actions">{actions}</div> : null}
      </header>
      {children}
    </div>
  );
}

interface SectionProps {
  title: ReactNode;
  /** Shown beside the title, e.g. a "See all" link. */
  aside?: ReactNode;
  children: ReactNode;
  id?: string;
}

/** A titled section of a page (h2). */
export function Section({ title, aside, children, id }: SectionProps) {
  const headingId = id ? `${id}-title` : undefined;
  return (
    <section className="section" aria-labelledby={headingId} id={id}>
      <div className="row row--between">
        <h2 className="section__title" id={headingId}>
          {title}
        </h2>
        {aside}
      </div>
      {children}
    </section>
  );
}

import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { Page } from '../../ui/page';
import { Prose } from '../../ui/prose';
import './docs-layout.css';

const DOCS_PAGES = [
  {
    to: '/docs/platform',
    label: 'Platform',
    hint: 'Documents, sync, publishing, self-hosting and the API',
  },
  { to: '/docs/themes', label: 'Themes', hint: 'Presets, colors and accessibility' },
  { to: '/docs/ai-actions', label: 'AI actions', hint: 'Prompts, outputs, quotas and privacy' },
] as const;

/**
 * The frame shared by the documentation pages: the page title, a list of the docs pages (beside the
 * text on wide screens, above it on phones) and the text itself.
 */
export function DocsLayout({
  title,
  lead,
  children,
}: {
  title: string;
  lead: string;
  children: ReactNode;
}) {
  return (
    <Page eyebrow="Documentation" title={title} lead={lead} width="content">
      <div className="docs-layout">
        <nav className="docs-layout__nav" aria-label="Documentation">
          <ul className="docs-layout__list">
            {DOCS_PAGES.map((page) => (
              <li key={page.to}>
                <Link
                  to={page.to}
                  className="docs-layout__link"
                  activeProps={{ 'aria-current': 'page' }}
                >
                  <span className="docs-layout__label">{page.label}</span>
                  <span className="docs-layout__hint">{page.hint}</span>
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="docs-layout__content">
          <Prose>{children}</Prose>
        </div>
      </div>
    </Page>
  );
}

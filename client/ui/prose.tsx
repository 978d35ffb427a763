import type { ReactNode } from 'react';
import './prose.css';

/**
 * Long-form text (docs, legal, about): styles plain h2/h3/p/ul/ol/dl/table/pre/code/blockquote
 * children. Wrap wide tables in `<div className="table-scroll">` so phones can scroll them.
 */
export function Prose({ children }: { children: ReactNode }) {
  return <div className="prose">{children}</div>;
}

/**
 * A table that may be wider than a phone: it scrolls sideways, and since a scrolling region must be
 * reachable by keyboard it is focusable, named "{label} table" (WCAG 2.1.1; axe
 * scrollable-region-focusable).
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-scroll" role="region" aria-label={`${label} table`} tabIndex={0}>
      {children}
    </div>
  );
}

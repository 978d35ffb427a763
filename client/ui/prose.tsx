import type { ReactNode } from 'react';
import './prose.css';

/**
 * Long-form text (docs, legal, about): styles plain h2/h3/p/ul/ol/dl/table/pre/code/blockquote
 * children. Wrap wide tables in `<div className="table-scroll">` so phones can scroll them.
 */
export function Prose({ children }: { children: ReactNode }) {
  return <div className="prose">{children}</div>;
}

import type { ReactNode } from 'react';

/**
 * The screen's title is the level-2 heading of the host page (which keeps its own h1), so heading
 * level 1–3 inside a screen (a heading component or markdown `#`–`###`) is h3–h5.
 */
export function Heading({ level, children }: { level: 1 | 2 | 3; children: ReactNode }) {
  const className = `rt-heading rt-heading-${level}`;
  if (level === 1) return <h3 className={className}>{children}</h3>;
  if (level === 2) return <h4 className={className}>{children}</h4>;
  return <h5 className={className}>{children}</h5>;
}

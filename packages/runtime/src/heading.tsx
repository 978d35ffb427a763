import type { ReactNode } from 'react';

/**
 * The screen's title is the level-2 heading of the host page (which keeps its own h1). Headings
 * inside a screen (a heading component or markdown `#`–`###`) are all h3 in the outline, sized by
 * their level: an app's author may put a level-2 heading first, and a skipped outline level is an
 * accessibility error (axe heading-order) the author cannot see.
 */
export function Heading({ level, children }: { level: 1 | 2 | 3; children: ReactNode }) {
  return <h3 className={`rt-heading rt-heading-${level}`}>{children}</h3>;
}

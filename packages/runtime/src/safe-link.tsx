import type { ReactNode } from 'react';
import { isAbsoluteUrl, safeHref } from './safe-url';

/**
 * A link only for http(s) or relative URLs; anything else (`javascript:`, `data:`…) is shown as its
 * text with no `href`. Absolute links open in a new tab without handing the app to the target.
 */
export function SafeLink({ url, children }: { url: string; children: ReactNode }) {
  const href = safeHref(url);
  if (href === null) return <span className="rt-link-text">{children}</span>;
  return isAbsoluteUrl(href) ? (
    <a className="rt-link" href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  ) : (
    <a className="rt-link" href={href}>
      {children}
    </a>
  );
}

import { genericErrorMessage } from '@pipit/protocol';
import { contentSecurityPolicy, sha256Source } from './security-headers';

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;min-height:100vh;display:grid;place-items:center;padding:24px;box-sizing:border-box}
main{max-width:40rem}
h1{font-size:1.25rem;font-weight:600;margin:0 0 .5rem}
code{font-family:ui-monospace,monospace;font-size:.95em}`;

/** The page's one inline style, allowed by its hash and nothing else. */
export const ERROR_PAGE_CSP = contentSecurityPolicy([sha256Source(STYLE)]);

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The page a document request gets when the server itself fails before the client can load. Plain
 * HTML with no script, so it renders even when the failure is the client build.
 */
export function renderServerErrorPage(host: string, digest: string): string {
  const message = escapeHtml(genericErrorMessage(host));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Application error · Pipit</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${message}</h1>
<p>Digest: <code data-testid="error-digest">${escapeHtml(digest)}</code></p>
<p><a href="/">Go to the home page</a> or reload in a moment.</p>
</main>
</body>
</html>`;
}

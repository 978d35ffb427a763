// Writes the pre-rendered public pages next to the built shell (docs/performance.md): for each of
// PRERENDERED_ROUTES, the page as a signed-out visitor sees it, rendered by the same components
// the browser hydrates (client/prerender/entry.tsx, built by `vite build --ssr` into
// dist/prerender). Run by `npm run build` after both builds; only Node built-ins are used.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = path.resolve(import.meta.dirname, '..');
const CLIENT_OUT = path.join(ROOT, 'dist/client');
const RENDERER = path.join(ROOT, 'dist/prerender/entry.js');

const ROOT_ELEMENT = '<div id="root"></div>';
const TITLE = /<title>[^<]*<\/title>/;
const DESCRIPTION = /<meta\s+name="description"[^>]*>/;
const INLINE_SCRIPT = /<script>[\s\S]*?<\/script>/g;
/** What React puts first in a rendered string: the elements it hoists into <head>. */
const HOISTED = /^(?:<(?:link|meta)\b[^>]*>|<title>[^<]*<\/title>)+/;

const { prerender, PRERENDERED_ROUTES, prerenderedFile } = await import(
  pathToFileURL(RENDERER).href
);
const shell = readFileSync(path.join(CLIENT_OUT, 'index.html'), 'utf8');
/** Vite's manifest of the client build: each source module's chunk, its style sheets and imports. */
const manifest = JSON.parse(readFileSync(path.join(CLIENT_OUT, '.vite/manifest.json'), 'utf8'));

/** The style sheets a manifest entry needs, with those of everything it imports statically. */
function styleSheetsOf(key, found = new Set(), seen = new Set()) {
  if (seen.has(key) || !manifest[key]) return found;
  seen.add(key);
  for (const css of manifest[key].css ?? []) found.add(css);
  for (const imported of manifest[key].imports ?? []) styleSheetsOf(imported, found, seen);
  return found;
}

/** What the shell links already. */
const shellStyleSheets = styleSheetsOf('index.html');

/**
 * The route file a route id names (file-based routing: `/_site/docs/platform` is
 * `routes/_site/docs/platform.tsx`, `/_site/` is `routes/_site/index.tsx`).
 */
const routeFile = (id) =>
  id === '__root__' ? 'routes/__root.tsx' : `routes${id.endsWith('/') ? `${id}index` : id}.tsx`;

/**
 * The style sheets of the code that draws these routes and that the shell does not link: a route's
 * code (and its styles) is loaded by the router after the page shows, so without them a page
 * would lay out again when they arrive.
 */
function routeStyleSheets(routeIds) {
  const needed = new Set();
  for (const id of routeIds) {
    const file = routeFile(id);
    for (const key of Object.keys(manifest)) {
      if (key !== file && !key.startsWith(`${file}?`)) continue;
      for (const css of styleSheetsOf(key)) if (!shellStyleSheets.has(css)) needed.add(css);
    }
  }
  return [...needed].map((css) => `<link rel="stylesheet" crossorigin href="/${css}">`).join('');
}
for (const marker of [ROOT_ELEMENT, TITLE, DESCRIPTION]) {
  const found = typeof marker === 'string' ? shell.includes(marker) : marker.test(shell);
  if (!found) throw new Error(`dist/client/index.html has no ${String(marker)}`);
}

for (const route of PRERENDERED_ROUTES) {
  const page = await prerender(route);
  if (!page.rendered) {
    throw new Error(`pre-rendering ${route} redirected or failed: it is not a public page`);
  }
  const hoisted = HOISTED.exec(page.html)?.[0] ?? '';
  // The router's scroll restoration writes an inline script for server renders (its ScriptOnce,
  // null in the browser): the policy forbids inline scripts, and the browser's router restores
  // scroll itself. No other script is in a page.
  const body = page.html.slice(hoisted.length).replace(INLINE_SCRIPT, '');
  if (/<script\b/i.test(body)) throw new Error(`pre-rendering ${route} left a script in the page`);
  // The page's own title and description replace the shell's; React's other hoisted elements
  // (image preloads) join them in <head>. Replaced by functions: a page's text may hold `$&`.
  const html = shell
    .replace(TITLE, '')
    .replace(DESCRIPTION, '')
    .replace('</head>', () => `${hoisted}${routeStyleSheets(page.routeIds)}</head>`)
    .replace(ROOT_ELEMENT, () => `<div id="root" data-prerendered>${body}</div>`);
  const file = path.join(CLIENT_OUT, prerenderedFile(route));
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, html);
}
console.log(`pre-rendered ${PRERENDERED_ROUTES.length} public pages`);

// Writes the pre-rendered public pages next to the built shell (docs/performance.md): for each of
// PRERENDERED_ROUTES, the page as a signed-out visitor sees it, rendered by the same components
// the browser hydrates and put into the shell (client/prerender/entry.tsx and compose.ts, built by
// `vite build --ssr` into dist/prerender). Run by `npm run build` after both builds.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = path.resolve(import.meta.dirname, '..');
const CLIENT_OUT = path.join(ROOT, 'dist/client');
const RENDERER = path.join(ROOT, 'dist/prerender/entry.js');

const { prerender, createPageComposer, PRERENDERED_ROUTES, prerenderedFile } = await import(
  pathToFileURL(RENDERER).href
);
const compose = createPageComposer(
  readFileSync(path.join(CLIENT_OUT, 'index.html'), 'utf8'),
  JSON.parse(readFileSync(path.join(CLIENT_OUT, '.vite/manifest.json'), 'utf8')),
);

for (const route of PRERENDERED_ROUTES) {
  const page = await prerender(route);
  if (page.outcome !== 'rendered') {
    throw new Error(`pre-rendering ${route} redirected or failed: it is not a public page`);
  }
  // Served as a file under the shell's policy, which allows no inline style: a style attribute
  // would be dropped by the browser and the page drawn without it.
  if (/\sstyle="/.test(page.html)) throw new Error(`pre-rendering ${route} left a style attribute`);
  const file = path.join(CLIENT_OUT, prerenderedFile(route));
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, compose(page));
}
console.log(`pre-rendered ${PRERENDERED_ROUTES.length} public pages`);

import { pageDataBlock, type SentAnswers } from '@pipit/protocol';

/** What rendering a route gives (entry.tsx). */
export interface RenderedRoute {
  /** React's string: the elements it hoists into <head> first (title, meta, preloads), then the page. */
  html: string;
  /** The routes drawn, by id: their code's style sheets are linked. */
  routeIds: string[];
}

/** Vite's manifest of the client build: each source module's chunk, style sheets and imports. */
export type ViteManifest = Record<string, { css?: string[]; imports?: string[] }>;

const ROOT_ELEMENT = '<div id="root"></div>';
const TITLE = /<title>[^<]*<\/title>/;
const DESCRIPTION = /<meta\s+name="description"[^>]*>/;
/** The router's scroll-restoration script, written into server renders only (ScriptOnce). */
const INLINE_SCRIPT = /<script>[\s\S]*?<\/script>/g;
/** What React puts first in a rendered string: the elements it hoists into <head>. */
const HOISTED = /^(?:<(?:link|meta)\b[^>]*>|<title>[^<]*<\/title>)+/;

/**
 * The route file a route id names (file-based routing: `/_site/docs/platform` is
 * `routes/_site/docs/platform.tsx`, `/_site/` is `routes/_site/index.tsx`).
 */
const routeFile = (id: string) =>
  id === '__root__' ? 'routes/__root.tsx' : `routes${id.endsWith('/') ? `${id}index` : id}.tsx`;

/**
 * Puts rendered pages into the built shell (index.html): the page in `#root` (marked
 * `data-prerendered`, which main.tsx hydrates), its title, description and React's other hoisted
 * elements in <head>, the style sheets of the routes' code that the shell does not link (without
 * them the page would lay out again when the router loads that code), and, for a page rendered per
 * request, the API answers it was drawn from (platform/api/page-data.ts). Throws if the shell lacks
 * what it needs or a page has a script of its own: the policy allows none inline.
 */
export function createPageComposer(shell: string, manifest: ViteManifest) {
  for (const marker of [ROOT_ELEMENT, TITLE, DESCRIPTION]) {
    const found = typeof marker === 'string' ? shell.includes(marker) : marker.test(shell);
    if (!found) throw new Error(`the built index.html has no ${String(marker)}`);
  }

  /** The style sheets a manifest entry needs, with those of everything it imports statically. */
  function styleSheetsOf(key: string, found = new Set<string>(), seen = new Set<string>()) {
    const entry = manifest[key];
    if (seen.has(key) || !entry) return found;
    seen.add(key);
    for (const css of entry.css ?? []) found.add(css);
    for (const imported of entry.imports ?? []) styleSheetsOf(imported, found, seen);
    return found;
  }
  const shellStyleSheets = styleSheetsOf('index.html');
  const keys = Object.keys(manifest);

  function routeStyleSheets(routeIds: string[]): string {
    const needed = new Set<string>();
    for (const id of routeIds) {
      const file = routeFile(id);
      for (const key of keys) {
        if (key !== file && !key.startsWith(`${file}?`)) continue;
        for (const css of styleSheetsOf(key)) if (!shellStyleSheets.has(css)) needed.add(css);
      }
    }
    return [...needed].map((css) => `<link rel="stylesheet" crossorigin href="/${css}">`).join('');
  }

  return function compose(page: RenderedRoute, answers?: SentAnswers): string {
    const hoisted = HOISTED.exec(page.html)?.[0] ?? '';
    // The browser's router restores scroll itself; no other script may be in a page.
    const body = page.html.slice(hoisted.length).replace(INLINE_SCRIPT, '');
    if (/<script\b/i.test(body)) throw new Error('the rendered page holds a script');
    const data = answers && Object.keys(answers).length > 0 ? pageDataBlock(answers) : '';
    // Replaced by functions: a page's text may hold `$&`.
    return shell
      .replace(TITLE, '')
      .replace(DESCRIPTION, '')
      .replace('</head>', () => `${hoisted}${routeStyleSheets(page.routeIds)}</head>`)
      .replace(ROOT_ELEMENT, () => `<div id="root" data-prerendered>${body}</div>${data}`);
  };
}

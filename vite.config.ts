import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { emojiImagePath, OFFLINE_EMOJI } from './packages/protocol/src/emoji-image.ts';
import { withHeadScripts } from './packages/protocol/src/head-scripts.ts';

const OUT_DIR = path.resolve(import.meta.dirname, 'dist/client');
/** The build fails if a precached file is larger (docs/library-notes.md#pwa). */
const MAX_PRECACHED_FILE_BYTES = 2 * 1024 * 1024;
const COMPRESSIBLE = /\.(js|css|html|svg|webmanifest|json|txt|map)$/;

/**
 * The emoji pictures every device keeps from its first visit (OFFLINE_EMOJI: the default icon and
 * the templates'), served by the server (`/emoji/…`, sync-server/src/http/emoji-images.ts) from
 * its Twemoji package: precached by URL, revised with that package's version.
 */
function offlineEmojiEntries(): Array<{ url: string; revision: string }> {
  const serverRequire = createRequire(
    path.resolve(import.meta.dirname, 'sync-server/package.json'),
  );
  const { version } = serverRequire('@twemoji/svg/package.json') as { version: string };
  return OFFLINE_EMOJI.map((emoji) => ({
    url: emojiImagePath(emoji)!,
    revision: `twemoji-${version}`,
  }));
}

/**
 * Writes .br and .gz next to every compressible file of the build, which the server sends to
 * browsers that accept them (sirv), so nothing is compressed per request.
 */
function precompress(): Plugin {
  // The build's own output directory: `vite build --outDir …` (a second build to compare) too.
  let outDir = OUT_DIR;
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const file = path.join(dir, name);
      return statSync(file).isDirectory() ? walk(file) : [file];
    });
  return {
    name: 'pipit-precompress',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        for (const file of walk(outDir)) {
          if (!COMPRESSIBLE.test(file) || statSync(file).size < 1024) continue;
          const data = readFileSync(file);
          writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
          writeFileSync(
            `${file}.br`,
            brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
          );
        }
      },
    },
  };
}

/**
 * The pages' head scripts written in, inline (packages/protocol/src/head-scripts.ts): no request
 * before the first paint; the server's policy allows them by their hashes.
 */
function headScripts(): Plugin {
  return {
    name: 'pipit-head-scripts',
    transformIndexHtml: { order: 'pre', handler: withHeadScripts },
  };
}

/**
 * The installed app's style sheet written into its page, in a <style> element, instead of linked:
 * a linked sheet blocks the first paint for one more round trip, which is most of what a phone on
 * a slow network waits for before `/apps/{id}/pwa` shows anything (docs/performance.md). The
 * server's policy allows the element by its hash (sync-server/src/http/security-headers.ts).
 *
 * The sheet is taken out of the entry chunk's `importedCss` before Vite reads it (`generateBundle`,
 * first): so the page gets no <link> to it, and no lazy chunk that imports from the entry lists it
 * among the files to load first (Vite's preload helper would link it again, later in the cascade
 * than the lazy parts' own sheets). The file itself is dropped: nothing refers to it.
 */
function inlineEntryStyles(): Plugin {
  let css = '';
  return {
    name: 'pipit-inline-entry-styles',
    apply: 'build',
    buildStart() {
      css = '';
    },
    generateBundle: {
      order: 'pre',
      handler(_options, bundle) {
        for (const entry of Object.values(bundle)) {
          if (entry.type !== 'chunk' || !entry.isEntry) continue;
          for (const fileName of entry.viteMetadata?.importedCss ?? []) {
            const sheet = bundle[fileName];
            if (sheet?.type !== 'asset') continue;
            // Vite's marker of the chunk the sheet came from, which it strips later than this.
            const text = String(sheet.source).replace(/\n?\/\*\$vite\$:\d+\*\/\s*$/, '');
            // The policy's hash is of the text as written, which the browser must read the same.
            if (/<\/style|[\r\0]/i.test(text)) throw new Error(`${fileName} cannot be inlined`);
            css += text;
            entry.viteMetadata?.importedCss.delete(fileName);
            delete bundle[fileName];
          }
        }
      },
    },
    transformIndexHtml: {
      order: 'post',
      handler: (html) =>
        css ? html.replace(/<\/head>/i, () => `<style>${css}</style></head>`) : html,
    },
  };
}

/**
 * `vite build --mode installed-app` builds the installed app (`/apps/{id}/pwa`, client/app.html)
 * on its own, first, into an emptied dist/client; the plain `vite build` then adds the site
 * beside it (scripts/pipit.mjs build runs both). Built together, the two shared their modules
 * through the automatic chunking, which gives a chunk to every set of pages sharing some code:
 * the installed app came as 32 files of 0.3-70 KB, and a phone on HTTP/1.1 fetches six at a time,
 * a round trip each (Lighthouse mobile 0.89). On its own it is one file and its lazy parts
 * (docs/performance.md). The service worker, built last, precaches both.
 */
export const INSTALLED_APP_MODE = 'installed-app';

/**
 * The site's entry and what it imports statically (`$initial`: every first load has it) in one
 * chunk and one style sheet, rather than the 19 pieces the automatic chunking cut along what the
 * lazy routes share: fewer requests before a public page's first paint (Lighthouse mobile FCP
 * 2.3 -> 1.8 s; docs/performance.md). The installed app's first load is one chunk too, now that
 * it carries neither Yjs nor the AI host (its first visit: 109 KB gzip in 2 files, against
 * 111 KB in 7 with the automatic chunking; the same offline start on a phone's CPU, within the
 * bench's run-to-run spread).
 */
const FIRST_LOAD_IN_ONE_CHUNK = {
  codeSplitting: { groups: [{ name: 'start', tags: ['$initial' as const] }] },
};

export default defineConfig(({ isSsrBuild, mode }) => ({
  root: 'client',
  publicDir: isSsrBuild ? false : '../public',
  // The pre-renderer carries its dependencies: it runs from dist/, away from client/node_modules.
  ssr: { noExternal: true },
  // The pre-renderer has no service worker to register (client/prerender/pwa-register.ts).
  resolve: isSsrBuild
    ? {
        alias: {
          'virtual:pwa-register/react': path.resolve(
            import.meta.dirname,
            'client/prerender/pwa-register.ts',
          ),
        },
      }
    : {},
  build: isSsrBuild
    ? {
        // `vite build --ssr`: the public pages' renderer for Node, run once by the build
        // (client/prerender/entry.tsx, scripts/prerender.mjs); never served.
        outDir: path.resolve(import.meta.dirname, 'dist/prerender'),
        emptyOutDir: true,
        target: 'node20',
        rollupOptions: { input: path.resolve(import.meta.dirname, 'client/prerender/entry.tsx') },
      }
    : mode === INSTALLED_APP_MODE
      ? {
          // The installed app on its own (`/apps/{id}/pwa`: no router, no site shell), first.
          outDir: OUT_DIR,
          emptyOutDir: true,
          target: 'es2022',
          rollupOptions: {
            input: path.resolve(import.meta.dirname, 'client/app.html'),
            output: FIRST_LOAD_IN_ONE_CHUNK,
          },
        }
      : {
          // The site, beside the installed app built before it.
          outDir: OUT_DIR,
          emptyOutDir: false,
          target: 'es2022',
          // .vite/manifest.json: which style sheets each route's code needs, for the
          // pre-rendered pages (scripts/prerender.mjs). Never served (a dot directory).
          manifest: true,
          rollupOptions: {
            input: path.resolve(import.meta.dirname, 'client/index.html'),
            output: FIRST_LOAD_IN_ONE_CHUNK,
          },
        },
  plugins: [
    // Before react() (docs/library-notes.md#tanstack-router).
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      routesDirectory: path.resolve(import.meta.dirname, 'client/routes'),
      generatedRouteTree: path.resolve(import.meta.dirname, 'client/route-tree.gen.ts'),
      quoteStyle: 'single',
      // Written unformatted: one line per union instead of one per route (the file is generated,
      // and neither prettier nor eslint reads it).
      enableRouteTreeFormatting: false,
    }),
    react(),
    headScripts(),
    mode === INSTALLED_APP_MODE && inlineEntryStyles(),
    !isSsrBuild &&
      VitePWA({
        strategies: 'injectManifest',
        srcDir: '.',
        filename: 'sw.ts',
        registerType: 'prompt',
        injectRegister: false,
        manifest: {
          id: '/',
          name: 'Pipit',
          short_name: 'Pipit',
          description:
            'Build small apps that work offline, co-edit them live, and install them on any device.',
          start_url: '/',
          scope: '/',
          display: 'standalone',
          theme_color: '#1a6e4c',
          background_color: '#f7f8f6',
          icons: [
            { src: '/icons/pipit-192.png', sizes: '192x192', type: 'image/png' },
            { src: '/icons/pipit-512.png', sizes: '512x512', type: 'image/png' },
            {
              src: '/icons/pipit-maskable-512.png',
              sizes: '512x512',
              type: 'image/png',
              purpose: 'maskable',
            },
          ],
        },
        injectManifest: {
          globPatterns: ['**/*.{js,css,html,png,svg,ico,webmanifest}'],
          additionalManifestEntries: offlineEmojiEntries(),
          maximumFileSizeToCacheInBytes: MAX_PRECACHED_FILE_BYTES,
        },
        devOptions: { enabled: false },
      }),
    !isSsrBuild && precompress(),
  ],
}));

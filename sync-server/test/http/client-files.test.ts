import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import zlib, { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  appPwaPaths,
  appShellHtml,
  appShellTarget,
  createId,
  genericErrorMessage,
  SHOWCASE_PWA,
} from '@pipit/protocol';
import { IMMUTABLE_CACHE, REVALIDATE_CACHE } from '../../src/http/client-files';
import { sha256Source } from '../../src/http/security-headers';
import type { ApiClient } from '../support/api-client';
import { type AccountsHarness, startAccountsServer } from '../support/engines';
import { createPublishedApp } from '../support/published-apps';
import { rawRequest } from '../support/raw-http';
import { type RunningPipit, startPipit } from '../support/start-server';

const SHELL =
  '<!doctype html><html><head><title>Pipit</title></head><body><div id="root"></div></body></html>';
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(4000))});`;
const PRICING = SHELL.replace('<div id="root">', '<div id="root" data-prerendered><h1>Pricing');
const TERMS = SHELL.replace('<div id="root">', '<div id="root" data-prerendered><h1>Terms');
const OUTSIDE_SECRET = 'this file is outside the build directory';

/** A build as Vite and vite-plugin-pwa lay it out, with precompressed variants. */
function writeBuild(dir: string) {
  mkdirSync(path.join(dir, 'assets'), { recursive: true });
  mkdirSync(path.join(dir, 'icons'), { recursive: true });
  writeFileSync(path.join(dir, 'index.html'), SHELL);
  writeFileSync(path.join(dir, 'assets/index-B5eTk6Wn.js'), SCRIPT);
  writeFileSync(path.join(dir, 'assets/index-B5eTk6Wn.js.br'), brotliCompressSync(SCRIPT));
  writeFileSync(path.join(dir, 'assets/index-B5eTk6Wn.js.gz'), gzipSync(SCRIPT));
  writeFileSync(path.join(dir, 'sw.js'), 'self.addEventListener("install", () => {});');
  writeFileSync(path.join(dir, 'manifest.webmanifest'), '{"name":"Pipit"}');
  writeFileSync(path.join(dir, 'icons/pipit-192.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  // The build's pre-rendered pages (scripts/prerender.mjs): two of them, the others missing.
  mkdirSync(path.join(dir, 'prerendered/legal'), { recursive: true });
  writeFileSync(path.join(dir, 'prerendered/pricing.html'), PRICING);
  writeFileSync(path.join(dir, 'prerendered/legal/terms.html'), TERMS);
}

describe('serving the built client', () => {
  let pipit: RunningPipit;
  let dir: string;
  beforeAll(async () => {
    const parent = mkdtempSync(path.join(tmpdir(), 'pipit-client-'));
    writeFileSync(path.join(parent, 'outside-secret.txt'), OUTSIDE_SECRET);
    dir = path.join(parent, 'build');
    writeBuild(dir);
    pipit = await startPipit({ clientDir: dir });
  });
  afterAll(async () => {
    await pipit.close();
    rmSync(path.dirname(dir), { recursive: true, force: true });
  });

  const get = (p: string, headers: Record<string, string> = {}) =>
    fetch(`${pipit.url}${p}`, { headers: { 'Accept-Encoding': 'identity', ...headers } });

  it('serves hashed assets as immutable', async () => {
    const response = await get('/assets/index-B5eTk6Wn.js');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe(IMMUTABLE_CACHE);
    expect(response.headers.get('content-type')).toMatch(/javascript/);
    expect(await response.text()).toBe(SCRIPT);
  });

  it.each(['/sw.js', '/manifest.webmanifest', '/icons/pipit-192.png'])(
    'revalidates %s on every use (no-cache)',
    async (file) => {
      const response = await get(file);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe(REVALIDATE_CACHE);
      expect(response.headers.get('etag')).toBeTruthy();
    },
  );

  it('serves the manifest as a web app manifest', async () => {
    const response = await get('/manifest.webmanifest');
    expect(response.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
  });

  it('sends the brotli variant to browsers that accept it', async () => {
    const response = await fetch(`${pipit.url}/assets/index-B5eTk6Wn.js`, {
      headers: { 'Accept-Encoding': 'br, gzip' },
    });
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(response.headers.get('vary')).toMatch(/Accept-Encoding/);
    expect(await response.text()).toBe(SCRIPT); // fetch decodes it
  });

  it.each(['/', '/about', '/docs/platform', '/ada_lovelace', '/Explore/'])(
    'serves the HTML shell with status 200 and no-cache for the route %s',
    async (route) => {
      const response = await get(route, { Accept: 'text/html' });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe(REVALIDATE_CACHE);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await response.text()).toBe(SHELL);
    },
  );

  it.each([
    '/no/such/page',
    '/docs/nope',
    '/www',
    `/apps/${createId()}/settings`,
    '/apps/not-an-id',
    // An app that is not there: its page's shell, 404 (http/app-page-status.test.ts).
    `/apps/${createId()}`,
    `/apps/${createId()}/edit`,
  ])(
    'answers %s with the shell and status 404, so the client shows its 404 page',
    async (route) => {
      const response = await get(route, { Accept: 'text/html' });
      expect(response.status).toBe(404);
      expect(await response.text()).toBe(SHELL);
    },
  );

  it('sends a pre-rendered page to a visitor without a session, and the shell to anyone with one', async () => {
    for (const [page, html] of [
      ['/pricing', PRICING],
      ['/legal/terms', TERMS],
    ] as const) {
      const anonymous = await get(page);
      expect(anonymous.status).toBe(200);
      expect(anonymous.headers.get('vary')).toBe('Accept-Encoding, Cookie');
      expect(anonymous.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(await anonymous.text()).toBe(html);
      // Signed in (either cookie name, a stale one too): the shell, which renders their view.
      for (const cookie of ['pipit-session=abc.def', 'x=1; __Host-pipit-session=abc.def']) {
        const signedIn = await get(page, { Cookie: cookie });
        expect(signedIn.headers.get('vary')).toBe('Accept-Encoding, Cookie');
        expect(await signedIn.text()).toBe(SHELL);
      }
      // Another cookie is no session.
      expect(await (await get(page, { Cookie: 'theme=dark' })).text()).toBe(html);
    }
    // A page of the list the build did not pre-render, and a page not on the list: the shell.
    expect(await (await get('/faq')).text()).toBe(SHELL);
    expect(await (await get('/explore')).text()).toBe(SHELL);
    // Revalidation: its own ETag.
    const first = await get('/pricing');
    const again = await get('/pricing', { 'If-None-Match': first.headers.get('etag') ?? '' });
    expect(again.status).toBe(304);
  });

  it('answers a missing file that is not a page with a plain 404', async () => {
    const response = await get('/assets/missing-123.js', { Accept: '*/*' });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
  });

  it('answers a revalidation of the shell with 304', async () => {
    const first = await get('/about', { Accept: 'text/html' });
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    const again = await get('/about', { Accept: 'text/html', 'If-None-Match': etag! });
    expect(again.status).toBe(304);
  });

  it('sends the shell and index.html with a Content-Security-Policy that forbids framing and inline script', async () => {
    for (const path of ['/about', '/index.html', '/no/such/page']) {
      const policy = (await get(path, { Accept: 'text/html' })).headers.get(
        'content-security-policy',
      );
      expect(policy, path).toContain("script-src 'self'");
      expect(policy, path).toContain("frame-ancestors 'none'");
      expect(policy, path).not.toContain('unsafe-inline');
    }
  });

  it('never sends an encoding the browser refused with q=0', async () => {
    const response = await fetch(`${pipit.url}/`, {
      headers: { 'Accept-Encoding': 'br;q=0, gzip' },
    });
    expect(response.headers.get('content-encoding')).toBe('gzip');
  });

  it('compresses the shell for browsers that accept it', async () => {
    const response = await fetch(`${pipit.url}/`, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(await response.text()).toBe(SHELL);
  });

  it('answers HEAD without a body and refuses other methods with 405', async () => {
    const head = await rawRequest(
      pipit.port,
      'HEAD /about HTTP/1.1\r\nHost: x\r\nAccept-Encoding: identity\r\nConnection: close\r\n\r\n',
    );
    expect(head).toMatch(/^HTTP\/1\.1 200 /);
    expect(head).toContain(`Content-Length: ${Buffer.byteLength(SHELL)}`);
    expect(head).not.toContain('<!doctype');
    const post = await fetch(`${pipit.url}/about`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('never serves files outside the build directory, however the path is written', async () => {
    // fetch() would normalise these paths away; the raw request sends them as an attacker would.
    for (const target of [
      '/../outside-secret.txt',
      '/%2e%2e/outside-secret.txt',
      '/assets/../../outside-secret.txt',
      '/..%2foutside-secret.txt',
      '/%2e%2e%2foutside-secret.txt',
      '/assets/..%5c..%5coutside-secret.txt',
    ]) {
      const answer = await rawRequest(
        pipit.port,
        `GET ${target} HTTP/1.1\r\nHost: x\r\nAccept: */*\r\nConnection: close\r\n\r\n`,
      );
      expect(answer, target).toMatch(/^HTTP\/1\.1 (400|404) /);
      expect(answer, target).not.toContain(OUTSIDE_SECRET);
    }
  });
});

/** The shell as the build writes it: vite-plugin-pwa adds Pipit's manifest link. */
const PWA_SHELL = `<!doctype html>
<html lang="en">
  <head>
    <meta name="theme-color" content="#1a6e4c" media="(prefers-color-scheme: light)" />
    <link rel="apple-touch-icon" href="/icons/apple-touch-icon.png" />
    <title>Pipit</title>
  <link rel="manifest" href="/manifest.webmanifest"></head>
  <body><div id="root"></div></body>
</html>`;

/** The installed app's style sheet, written into its page by the build (vite.config.ts). */
const APP_STYLE = '.loading{display:flex}.button{color:var(--accent)}';

/** The installed app's own entry (client/app.html as built): no router, no site. */
const APP_ENTRY_SHELL = PWA_SHELL.replace('<title>Pipit</title>', '<title>App · Pipit</title>')
  .replace('</head>', `<style>${APP_STYLE}</style></head>`)
  .replace('</body>', '<script type="module" src="/assets/app-x.js"></script></body>');

describe('the shell of an app’s own pages (/apps/{id}/pwa, /apps/{id}/install, /demo1)', () => {
  let h: AccountsHarness;
  let dir: string;
  let owner: ApiClient;
  /** Two published public apps and a private one, all the owner's. */
  let a: string;
  let b: string;
  let hidden: string;
  const manifestLinks = (html: string) => html.match(/<link rel="manifest"[^>]*>/g);
  const get = (p: string, headers: Record<string, string> = {}) =>
    fetch(`${h.pipit.url}${p}`, { headers: { Accept: 'text/html', ...headers } });
  const asOwner = (p: string) => get(p, { Cookie: owner.cookie! });

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pipit-client-'));
    writeFileSync(path.join(dir, 'index.html'), PWA_SHELL);
    writeFileSync(path.join(dir, 'app.html'), APP_ENTRY_SHELL);
    h = await startAccountsServer('sqlite', { clientDir: dir });
    owner = await h.signup('shell_owner');
    const { storage } = h.pipit.server;
    a = await createPublishedApp(storage, owner);
    b = await createPublishedApp(storage, owner);
    hidden = await createPublishedApp(storage, owner, { visibility: 'private' });
  });
  afterAll(async () => {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  });
  afterEach(() => vi.restoreAllMocks());

  it('starts /apps/{id}/pwa from the installed app’s own entry and /install from the site’s', async () => {
    const installed = await (await asOwner(`/apps/${a}/pwa`)).text();
    expect(installed).toContain('/assets/app-x.js');
    expect(installed).toBe(appShellHtml(APP_ENTRY_SHELL, appShellTarget(`/apps/${a}/pwa`)!));
    const install = await (await get(`/apps/${a}/install`)).text();
    expect(install).not.toContain('/assets/app-x.js');
    expect(install).toBe(appShellHtml(PWA_SHELL, appShellTarget(`/apps/${a}/install`)!));
  });

  it.each(['pwa', 'install'])(
    'links /apps/{id}/%s to the app’s manifest (with credentials) and its apple-touch-icon',
    async (page) => {
      const response = await get(`/apps/${a}/${page}`);
      expect(response.status).toBe(200);
      // The installed app's page carries the app as of now to a visitor without a session.
      expect(response.headers.get('cache-control')).toBe(
        page === 'pwa' ? 'no-store' : REVALIDATE_CACHE,
      );
      expect(response.headers.get('content-security-policy')).toContain("manifest-src 'self'");
      // A private app's page answers its owner otherwise than a stranger: caches key on the cookie.
      expect(response.headers.get('vary')).toBe('Accept-Encoding, Cookie');
      const html = await response.text();
      expect(manifestLinks(html)).toEqual([
        `<link rel="manifest" href="${appPwaPaths(a).manifest}" crossorigin="use-credentials">`,
      ]);
      expect(html).toContain(`href="${appPwaPaths(a).appleTouch180}"`);
      expect(html).not.toContain('/icons/apple-touch-icon.png');
      expect(html).not.toContain('theme-color');
    },
  );

  it.each([
    ['pwa', APP_ENTRY_SHELL],
    ['install', PWA_SHELL],
  ])(
    'answers /apps/{unknown id}/%s with the page’s shell as built and 404, compressing nothing',
    async (page, built) => {
      // The page's shell as built is compressed once, when first served.
      expect((await get(`/apps/${createId()}/${page}`)).status).toBe(404);
      const gzip = vi.spyOn(zlib, 'gzip');
      const brotli = vi.spyOn(zlib, 'brotliCompress');
      const gzipSync = vi.spyOn(zlib, 'gzipSync');
      const brotliSync = vi.spyOn(zlib, 'brotliCompressSync');
      for (let i = 0; i < 20; i++) {
        const response = await get(`/apps/${createId()}/${page}`, { 'Accept-Encoding': 'br' });
        expect(response.status).toBe(404);
        expect(response.headers.get('vary')).toBe('Accept-Encoding, Cookie');
        // The client renders its own "not available" page; nothing links an app's manifest.
        expect(await response.text()).toBe(built);
      }
      // No id costs a compression of its own.
      for (const spy of [gzip, brotli, gzipSync, brotliSync]) expect(spy).not.toHaveBeenCalled();
    },
  );

  it("allows the installed app's own style element by its hash, wherever its page is sent, and no other inline style", async () => {
    const styleSrc = async (response: Response) => {
      await response.arrayBuffer();
      expect(response.status, response.url).toBeLessThan(500);
      const policy = response.headers.get('content-security-policy') ?? '';
      return /(?:^|; )style-src ([^;]*)/.exec(policy)?.[1];
    };
    const appStyle = `'self' '${sha256Source(APP_STYLE)}'`;
    // Its shell for the owner; with the app inside for a visitor; 404 for an unknown id; and
    // /app.html as the service worker precaches it (its headers travel with it).
    expect(await styleSrc(await asOwner(`/apps/${a}/pwa`))).toBe(appStyle);
    expect(await styleSrc(await get(`/apps/${a}/pwa`))).toBe(appStyle);
    expect(await styleSrc(await get(`/apps/${createId()}/pwa`))).toBe(appStyle);
    expect(await styleSrc(await get('/app.html'))).toBe(appStyle);
    // sirv serves /app.html/ as /app.html: under its policy too.
    expect(await styleSrc(await get('/app.html/'))).toBe(appStyle);
    // The site's pages have no <style>: none is allowed there.
    for (const page of ['/', '/index.html', `/apps/${a}/install`]) {
      expect(await styleSrc(await get(page)), page).toBe("'self'");
    }
  });

  it("puts an app's text into its page as written, and allows none of it as style", async () => {
    // What a replacement string would expand (`$\`` the text before the match, `$&` the match).
    const title = "a <style>x</style> $` $& $$ $' b";
    const id = await createPublishedApp(h.pipit.server.storage, owner, { title });
    const response = await get(`/apps/${id}/pwa`);
    expect(response.status).toBe(200);
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(/(?:^|; )style-src ([^;]*)/.exec(policy)?.[1]).toBe(
      `'self' '${sha256Source(APP_STYLE)}'`,
    );
    const html = await response.text();
    const blocks = [
      ...html.matchAll(/<script type="application\/json" id="pipit-page-data">([^<]*)<\/script>/g),
    ];
    expect(blocks).toHaveLength(1);
    expect(html.replace(blocks[0]![0], '')).toBe(
      appShellHtml(APP_ENTRY_SHELL, appShellTarget(`/apps/${id}/pwa`)!),
    );
    const sent = JSON.parse(blocks[0]![1]!) as Record<string, { body: string }>;
    expect(JSON.parse(sent[`/api/published/${id}`]!.body).title).toBe(title);
  });

  it('answers a stranger exactly as for an unknown id when the app is private, and its owner with its shell', async () => {
    for (const page of ['pwa', 'install']) {
      const unknown = await get(`/apps/${createId()}/${page}`);
      const strangers = await get(`/apps/${hidden}/${page}`);
      expect(strangers.status).toBe(404);
      expect(strangers.headers.get('etag')).toBe(unknown.headers.get('etag'));
      expect(await strangers.text()).toBe(await unknown.text());

      const owners = await asOwner(`/apps/${hidden}/${page}`);
      expect(owners.status).toBe(200);
      expect(manifestLinks(await owners.text())?.[0]).toContain(appPwaPaths(hidden).manifest);
    }
  });

  it('compresses a visible app’s shell once, off the event loop', async () => {
    const id = await createPublishedApp(h.pipit.server.storage, owner);
    const brotli = vi.spyOn(zlib, 'brotliCompress');
    const sync = [vi.spyOn(zlib, 'gzipSync'), vi.spyOn(zlib, 'brotliCompressSync')];
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${h.pipit.url}/apps/${id}/pwa`, {
        headers: { 'Accept-Encoding': 'br', Cookie: owner.cookie! },
      });
      expect(response.headers.get('content-encoding')).toBe('br');
      expect(manifestLinks(await response.text())?.[0]).toContain(id);
    }
    expect(brotli).toHaveBeenCalledTimes(1);
    for (const spy of sync) expect(spy).not.toHaveBeenCalled();
  });

  it('carries the published app to a visitor without a session, escaped, compressed off the event loop', async () => {
    const title = 'Tricky </script><script>alert(1)</script> \u2028 app';
    const id = await createPublishedApp(h.pipit.server.storage, owner, { title });
    const sync = [vi.spyOn(zlib, 'gzipSync'), vi.spyOn(zlib, 'brotliCompressSync')];
    const response = await get(`/apps/${id}/pwa`, { 'Accept-Encoding': 'br' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('vary')).toBe('Accept-Encoding, Cookie');
    expect(response.headers.get('etag')).toBeNull();
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    for (const spy of sync) expect(spy).not.toHaveBeenCalled();
    const html = await response.text();
    // The shell, the app's manifest, and one data block: the API's answer, as its browser gets it.
    const block =
      /<script type="application\/json" id="pipit-page-data">([^<]*)<\/script><\/body>/.exec(html);
    expect(block).not.toBeNull();
    expect(html.replace(block![0], '</body>')).toBe(
      appShellHtml(APP_ENTRY_SHELL, appShellTarget(`/apps/${id}/pwa`)!),
    );
    expect(html.match(/<script/g)?.length).toBe(APP_ENTRY_SHELL.match(/<script/g)!.length + 1);
    const sent = JSON.parse(block![1]!) as Record<string, { status: number; body: string }>;
    const api = await fetch(`${h.pipit.url}/api/published/${id}`);
    expect(Object.keys(sent)).toEqual([`/api/published/${id}`]);
    expect(sent[`/api/published/${id}`]!.status).toBe(200);
    expect(JSON.parse(sent[`/api/published/${id}`]!.body)).toEqual(await api.json());
    expect(JSON.parse(sent[`/api/published/${id}`]!.body).title).toBe(title);

    // Signed in (its owner): the shell as built, which asks for the app itself.
    const owners = await asOwner(`/apps/${id}/pwa`);
    expect(await owners.text()).not.toContain('pipit-page-data');
    // HEAD: the shell's headers, nothing fetched for it.
    expect((await fetch(`${h.pipit.url}/apps/${id}/pwa`, { method: 'HEAD' })).status).toBe(200);
  });

  it.each(['/demo1', '/demo1/'])(
    'links %s to the showcase’s own manifest, apple-touch-icon and theme colour',
    async (route) => {
      const response = await get(route);
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(manifestLinks(html)).toEqual([
        `<link rel="manifest" href="${SHOWCASE_PWA.manifest}">`,
      ]);
      expect(html).toContain(`href="${SHOWCASE_PWA.appleTouch180}"`);
      expect(html).not.toContain('/icons/apple-touch-icon.png');
      expect(html.match(/<meta name="theme-color"[^>]*>/g)).toEqual([
        `<meta name="theme-color" content="${SHOWCASE_PWA.themeColor}">`,
      ]);
      const etag = response.headers.get('etag')!;
      expect((await get('/demo1', { 'If-None-Match': etag })).status).toBe(304);
    },
  );

  it.each(['/', '/about', '/demo', `/apps/{id}`, `/apps/{id}/edit`, '/no/such/page'])(
    'keeps Pipit’s manifest on %s',
    async (route) => {
      const html = await (await get(route.replace('{id}', a))).text();
      expect(html).toBe(PWA_SHELL);
    },
  );

  it('gives each app’s shell its own ETag, and revalidates each against its own', async () => {
    const pipitTag = (await asOwner('/about')).headers.get('etag')!;
    const aTag = (await asOwner(`/apps/${a}/pwa`)).headers.get('etag')!;
    const bTag = (await asOwner(`/apps/${b}/pwa`)).headers.get('etag')!;
    expect(new Set([pipitTag, aTag, bTag]).size).toBe(3);
    const again = await get(`/apps/${a}/pwa`, { 'If-None-Match': aTag, Cookie: owner.cookie! });
    expect(again.status).toBe(304);
    const crossed = await get(`/apps/${b}/pwa`, { 'If-None-Match': aTag, Cookie: owner.cookie! });
    expect(crossed.status).toBe(200);
    expect(manifestLinks(await crossed.text())?.[0]).toContain(b);
    // The install page is the site's shell with the same app's manifest: a shell of its own.
    const installTag = (await get(`/apps/${a}/install`)).headers.get('etag')!;
    expect(installTag).not.toBe(aTag);
    expect((await get(`/apps/${a}/install`, { 'If-None-Match': installTag })).status).toBe(304);
  });
});

describe('when the client is not built', () => {
  it('shows the generic error page, under a strict policy, with a digest that is in the server log', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'pipit-nobuild-'));
    const pipit = await startPipit({ clientDir: path.join(empty, 'missing') });
    try {
      const response = await fetch(`${pipit.url}/about`, { headers: { Accept: 'text/html' } });
      expect(response.status).toBe(500);
      expect(response.headers.get('content-security-policy')).toMatch(/style-src 'self' 'sha256-/);
      const html = await response.text();
      const host = new URL(pipit.url).host;
      expect(html).toContain(genericErrorMessage(host));
      const digest = /data-testid="error-digest">([0-9a-f]{12})</.exec(html)?.[1];
      expect(digest).toBeTruthy();
      const logged = pipit.logs.find((l) => l.digest === digest);
      expect(logged?.level).toBe('error');
      expect(logged?.err?.message).toMatch(/ENOENT/);
      expect(pipit.logs.some((l) => l.msg.includes('the client is not built'))).toBe(true);
    } finally {
      await pipit.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

import { describe, expect, it } from 'vitest';
import {
  appPwaPaths,
  appShellHtml,
  appShellTarget,
  createId,
  SHOWCASE_PWA,
  shellDocument,
} from '../src/index';

/** The head of the built shell as Vite and vite-plugin-pwa write it (dist/client/index.html). */
const BUILT_SHELL = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
    <meta name="color-scheme" content="light dark" />
    <meta name="theme-color" content="#1a6e4c" media="(prefers-color-scheme: light)" />
    <meta name="theme-color" content="#0f1512" media="(prefers-color-scheme: dark)" />
    <meta
      name="description"
      content="Pipit: build small apps that work offline."
    />
    <link rel="icon" href="/favicon.ico" sizes="32x32" />
    <link rel="icon" href="/icons/pipit.svg" type="image/svg+xml" />
    <link rel="apple-touch-icon" href="/icons/apple-touch-icon.png" />
    <script src="/theme-init.js"></script>
    <title>Pipit</title>
    <script type="module" crossorigin src="/assets/index-CZD76XeR.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/link-2RshWBOu.js">
    <link rel="stylesheet" crossorigin href="/assets/index-CIwu0W4L.css">
  <link rel="manifest" href="/manifest.webmanifest"></head>
  <body>
    <div id="root"></div>
  </body>
</html>`;

const id = createId();
const paths = appPwaPaths(id);
const app = { kind: 'app', appId: id, page: 'pwa' } as const;
const installPage = { kind: 'app', appId: id, page: 'install' } as const;
const showcase = { kind: 'showcase' } as const;

function linksIn(html: string, rel: string): string[] {
  return [...html.matchAll(/<link\b[^>]*>/g)]
    .map((m) => m[0])
    .filter((tag) => new RegExp(`rel="${rel}"`).test(tag));
}

describe('appShellHtml', () => {
  it('replaces Pipit’s manifest link with the app’s, sent with credentials', () => {
    const html = appShellHtml(BUILT_SHELL, app);
    expect(linksIn(html, 'manifest')).toEqual([
      `<link rel="manifest" href="${paths.manifest}" crossorigin="use-credentials">`,
    ]);
    expect(html).not.toContain('href="/manifest.webmanifest"');
  });

  it('replaces the apple-touch-icon with the app’s 180 px icon', () => {
    const html = appShellHtml(BUILT_SHELL, app);
    expect(linksIn(html, 'apple-touch-icon')).toEqual([
      `<link rel="apple-touch-icon" sizes="180x180" href="${paths.appleTouch180}">`,
    ]);
  });

  it('drops Pipit’s theme colours, so the installed window takes the manifest’s', () => {
    const html = appShellHtml(BUILT_SHELL, app);
    expect(html).not.toMatch(/name="theme-color"/);
  });

  it('writes the app’s theme colour when the caller knows it', () => {
    const html = appShellHtml(BUILT_SHELL, app, { themeColor: '#3B3FB5' });
    expect(html.match(/<meta name="theme-color"[^>]*>/g)).toEqual([
      '<meta name="theme-color" content="#3b3fb5">',
    ]);
    expect(() => appShellHtml(BUILT_SHELL, app, { themeColor: 'red"><script>' })).toThrow();
  });

  it('keeps everything else byte for byte, inside the head', () => {
    const html = appShellHtml(BUILT_SHELL, app);
    const keptLines = BUILT_SHELL.split('\n').filter(
      (line) => !/theme-color|apple-touch-icon|rel="manifest"/.test(line),
    );
    for (const line of keptLines) expect(html).toContain(line);
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toContain(paths.manifest);
    expect(head).toContain(paths.appleTouch180);
    expect(html.indexOf('</head>')).toBeLessThan(html.indexOf('<body>'));
    expect(html).not.toMatch(/\n\s*\n/); // removed tags leave no blank lines
  });

  it('adds the links to a shell that has none (the development server’s)', () => {
    const html = appShellHtml('<html><head><title>Pipit</title></head><body></body></html>', app);
    expect(html).toBe(
      `<html><head><title>Pipit</title><link rel="manifest" href="${paths.manifest}" crossorigin="use-credentials"><link rel="apple-touch-icon" sizes="180x180" href="${paths.appleTouch180}"></head><body></body></html>`,
    );
  });

  it('recognises the tags however their attributes are quoted, ordered or cased', () => {
    const html = appShellHtml(
      `<HEAD><LINK HREF='/m.json' REL='manifest'><link href=/a.png rel=apple-touch-icon-precomposed><meta content="#000" NAME="Theme-Color"><link rel="icon" href="/i.svg"></HEAD>`,
      app,
    );
    expect(html).not.toContain('/m.json');
    expect(html).not.toContain('/a.png');
    expect(html).not.toContain('#000');
    expect(html).toContain('<link rel="icon" href="/i.svg">');
    expect(html.match(/rel="manifest"/g)).toHaveLength(1);
  });

  it('gives the same result when applied twice (the service worker may see a rewritten copy)', () => {
    const once = appShellHtml(BUILT_SHELL, app);
    expect(appShellHtml(once, app)).toBe(once);
  });

  it('refuses an id that is not an id: it is written into the HTML', () => {
    const forged = (appId: string) => ({ kind: 'app', appId, page: 'pwa' }) as const;
    expect(() => appShellHtml(BUILT_SHELL, forged('"><script>alert(1)</script>'))).toThrow();
    expect(() => appShellHtml(BUILT_SHELL, forged(id.toUpperCase()))).toThrow();
  });

  it('gives the showcase its own manifest, apple-touch-icon and theme colour', () => {
    const html = appShellHtml(BUILT_SHELL, showcase);
    expect(linksIn(html, 'manifest')).toEqual([
      `<link rel="manifest" href="${SHOWCASE_PWA.manifest}">`,
    ]);
    expect(linksIn(html, 'apple-touch-icon')).toEqual([
      `<link rel="apple-touch-icon" sizes="180x180" href="${SHOWCASE_PWA.appleTouch180}">`,
    ]);
    expect(html.match(/<meta name="theme-color"[^>]*>/g)).toEqual([
      `<meta name="theme-color" content="${SHOWCASE_PWA.themeColor}">`,
    ]);
    expect(appShellHtml(html, showcase)).toBe(html);
  });
});

describe('appShellTarget', () => {
  it('names the app for its installed page and its install page', () => {
    expect(appShellTarget(`/apps/${id}/pwa`)).toEqual(app);
    expect(appShellTarget(`/apps/${id}/install`)).toEqual(installPage);
    expect(appShellTarget(`/apps/${id}/pwa/`)).toEqual(app);
  });

  it('names the showcase for /demo1', () => {
    expect(appShellTarget('/demo1')).toEqual(showcase);
    expect(appShellTarget('/demo1/')).toEqual(showcase);
  });

  it('leaves every other page with Pipit’s shell', () => {
    for (const path of [
      '/',
      '/apps',
      `/apps/${id}`,
      `/apps/${id}/edit`,
      `/apps/${id}/PWA`,
      `/apps/${id}/pwa/extra`,
      `/apps/${id.toUpperCase()}/pwa`,
      '/apps/not-an-id/pwa',
      `/x/apps/${id}/pwa`,
      '/demo',
      '/demo1/extra',
      '/DEMO1',
      '/demo12',
    ]) {
      expect(appShellTarget(path), path).toBeNull();
    }
  });
});

describe('shellDocument', () => {
  it('starts the installed app from its own entry and every other page from the site’s', () => {
    expect(shellDocument(appShellTarget(`/apps/${id}/pwa`))).toBe('/app.html');
    expect(shellDocument(appShellTarget(`/apps/${id}/install`))).toBe('/index.html');
    expect(shellDocument(appShellTarget('/demo1'))).toBe('/index.html');
    expect(shellDocument(appShellTarget(`/apps/${id}`))).toBe('/index.html');
    expect(shellDocument(null)).toBe('/index.html');
  });
});

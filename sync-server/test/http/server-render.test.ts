import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  contentSecurityPolicy,
  sha256Source,
  styleAttributeSources,
} from '../../src/http/security-headers';
import { createRenderBudget } from '../../src/http/server-render';
import { type RunningPipit, startPipit } from '../support/start-server';

/*
 * Pages rendered per request (explore, profiles, app pages; docs/performance.md) with a stand-in
 * for the renderer the client build makes (dist/prerender/entry.js): the server's part — which
 * requests are rendered, the renderer's calls reaching the real API, the answer's status, headers,
 * policy and encoding, and the shell whenever a render fails — is the production code.
 */

const SHELL =
  '<!doctype html><html><head><title>Pipit</title></head><body><div id="root"></div></body></html>';

/** The stand-in renderer: what it was asked, and a page that shows what the API answered it. */
const RENDERER = `
export const calls = [];
export async function renderRequest(url, fetchApi, origin) {
  calls.push({ url, origin });
  if (url.startsWith('/apps/')) throw new Error('the renderer broke');
  const explore = await fetchApi('/api/explore?sort=new', {});
  const body = await explore.text();
  const missing = url === '/nobody_here';
  return {
    html: '<title>Rendered</title><main style="width:52px;background:#1a7f5a">' + url +
      ' explore:' + explore.status + ' ' + JSON.parse(body).total + ' origin:' + origin + '</main>',
    outcome: missing
      ? 'not-found'
      : url === '/redirected'
        ? 'redirected'
        : url === '/broken_route'
          ? 'failed'
          : 'rendered',
    problem: url === '/broken_route' ? 'the API failed' : undefined,
    routeIds: [],
    answers: { '/api/explore?sort=new': { status: explore.status, body, date: null } },
  };
}
export function createPageComposer(shell) {
  return (page, answers) =>
    shell.replace('<div id="root"></div>', '<div id="root" data-prerendered>' + page.html + '</div>' +
      '<script type="application/json" id="pipit-page-data">' + JSON.stringify(answers).replace(/</g, '\\\\u003c') + '</script>');
}
`;

describe('public pages rendered per request', () => {
  let pipit: RunningPipit;
  let parent: string;
  beforeAll(async () => {
    parent = mkdtempSync(path.join(tmpdir(), 'pipit-ssr-'));
    const dir = path.join(parent, 'client');
    mkdirSync(path.join(dir, '.vite'), { recursive: true });
    writeFileSync(path.join(dir, 'index.html'), SHELL);
    writeFileSync(path.join(dir, '.vite/manifest.json'), '{}');
    mkdirSync(path.join(parent, 'prerender'));
    writeFileSync(path.join(parent, 'prerender/entry.js'), RENDERER);
    pipit = await startPipit({ clientDir: dir });
  });
  afterAll(async () => {
    await pipit?.close();
    rmSync(parent, { recursive: true, force: true });
  });

  const get = (p: string, headers: Record<string, string> = {}) =>
    fetch(`${pipit.url}${p}`, { headers: { 'Accept-Encoding': 'identity', ...headers } });

  it('renders explore and profiles for a visitor without a session, from the real API', async () => {
    const explore = await get('/explore?q=birds&sort=popular');
    expect(explore.status).toBe(200);
    const html = await explore.text();
    // The renderer was given the address as asked, and the origin the browser is on.
    expect(html).toContain('/explore?q=birds&sort=popular explore');
    expect(html).toContain(`origin:${pipit.url}`);
    // Its API call reached the server's own API (an empty catalogue: 0 apps).
    expect(html).toContain('explore:200 0');
    expect(html).toContain('<script type="application/json" id="pipit-page-data">');
    expect(explore.headers.get('cache-control')).toBe('no-store');
    expect(explore.headers.get('vary')).toBe('Accept-Encoding, Cookie');
    // The shell's policy, with the page's own style attribute allowed by its hash, nothing more.
    const policy = explore.headers.get('content-security-policy') ?? '';
    const scriptSources = (csp: string) => /script-src [^;]*/.exec(csp)?.[0];
    expect(scriptSources(policy)).toBe(scriptSources(contentSecurityPolicy()));
    expect(policy).toContain(
      `style-src 'self' 'unsafe-hashes' '${sha256Source('width:52px;background:#1a7f5a')}'`,
    );
    expect(policy).not.toContain('unsafe-inline');

    const profile = await get('/some_person');
    expect(profile.status).toBe(200);
    expect(await profile.text()).toContain('/some_person explore:200');
  });

  it('answers 404 for what is not there, rendered', async () => {
    const missing = await get('/nobody_here');
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('/nobody_here explore:200');
  });

  it('sends the shell to someone with a session cookie, without rendering', async () => {
    for (const cookie of ['pipit-session=abc.def', 'x=1; __Host-pipit-session=abc.def']) {
      const page = await get('/explore', { Cookie: cookie });
      expect(page.status).toBe(200);
      expect(page.headers.get('vary')).toBe('Accept-Encoding, Cookie');
      expect(await page.text()).toBe(SHELL);
    }
    // HEAD is answered from the shell too (nothing to render for a body never sent).
    const head = await fetch(`${pipit.url}/explore`, { method: 'HEAD' });
    expect(head.status).toBe(200);
  });

  it('sends the shell when the render fails or redirects, and logs a failure', async () => {
    const broken = await get(`/apps/${'a'.repeat(26)}`);
    // The shell, with the status of an app that is not there (404, not 200).
    expect(broken.status).toBe(404);
    expect(await broken.text()).toBe(SHELL);
    expect(await (await get('/broken_route')).text()).toBe(SHELL);
    const messages = pipit.logs.map((line) => line.msg);
    expect(messages).toContain('a public page could not be rendered; sent the shell');
    expect(messages).toContain('a public page did not render; sent the shell');
    // A redirect is an answer, not a failure: the shell, and nothing in the log.
    const lines = pipit.logs.length;
    expect(await (await get('/redirected')).text()).toBe(SHELL);
    expect(pipit.logs.slice(lines).map((line) => line.msg)).not.toContain(
      'a public page did not render; sent the shell',
    );
  });

  it('compresses a rendered page for browsers that accept it', async () => {
    for (const encoding of ['br', 'gzip']) {
      const page = await fetch(`${pipit.url}/explore`, {
        headers: { 'Accept-Encoding': encoding },
      });
      expect(page.headers.get('content-encoding')).toBe(encoding);
      // fetch decodes it; the length sent is the compressed body's.
      const text = await page.text();
      expect(text).toContain('explore:200');
      expect(Number(page.headers.get('content-length'))).toBeLessThan(Buffer.byteLength(text));
    }
  });
});

describe('the hashes of server-rendered style attributes', () => {
  it('hash each value as the browser reads it, once', () => {
    const html =
      '<span style="width:52px"></span><i style="width:52px"></i>' +
      '<b style="font-family:&quot;A &amp; B&quot;;content:&#x27;&lt;&gt;&#x27;"></b>';
    expect(styleAttributeSources(html)).toEqual([
      sha256Source('width:52px'),
      sha256Source(`font-family:"A & B";content:'<>'`),
    ]);
    // Text that merely reads like an attribute is not one (React escapes the quote in text).
    expect(styleAttributeSources('<p> style=&quot;x&quot;</p>')).toEqual([]);
  });
});

describe('the render budget', () => {
  it('lets a second’s worth of renders start at once, then as many as time gives back', () => {
    let now = 0;
    const mayRender = createRenderBudget(50, () => now);
    const burst = Array.from({ length: 60 }, () => mayRender());
    expect(burst.filter(Boolean)).toHaveLength(50);
    now += 100; // a tenth of a second: five more
    expect(Array.from({ length: 10 }, () => mayRender()).filter(Boolean)).toHaveLength(5);
    now += 60_000; // a long quiet spell never saves more than a second's worth
    expect(Array.from({ length: 60 }, () => mayRender()).filter(Boolean)).toHaveLength(50);
  });
});

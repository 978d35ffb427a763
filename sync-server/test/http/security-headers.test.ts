import { readdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createId, HEAD_SCRIPTS } from '@pipit/protocol';
import {
  contentSecurityPolicy,
  HSTS,
  preferredEncoding,
  RESOURCE_CSP,
  sha256Source,
} from '../../src/http/security-headers';
import { rawRequest } from '../support/raw-http';
import { CLIENT_DIR, type RunningPipit, startPipit } from '../support/start-server';
import { insertUser } from '../support/users';

describe('preferredEncoding', () => {
  it.each([
    ['gzip, deflate, br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0.0, gzip;q=0', undefined],
    ['identity', undefined],
    ['', undefined],
    [undefined, undefined],
    ['BR;Q=0.5', 'br'],
  ])('%s → %s', (header, expected) => {
    expect(preferredEncoding(header)).toBe(expected);
  });
});

describe('security headers on every response', () => {
  const ASSETS = path.join(CLIENT_DIR, 'assets');
  const script = readdirSync(ASSETS).find((name) => name.endsWith('.js'));
  const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';
  let pipit: RunningPipit;
  let unbuilt: RunningPipit;
  let uploadId: string;

  beforeAll(async () => {
    pipit = await startPipit({ env: { METRICS_TOKEN } });
    unbuilt = await startPipit({ clientDir: path.join(pipit.dataDir, 'no-client-here') });
    const owner = await insertUser(pipit.server.storage);
    uploadId = createId();
    const png = await sharp({
      create: { width: 4, height: 4, channels: 3, background: '#336699' },
    })
      .png()
      .toBuffer();
    await pipit.server.storage.uploads.insert({
      id: uploadId,
      userId: owner.id,
      contentType: 'image/png',
      bytes: png,
      createdAt: Date.now(),
    });
  });
  afterAll(async () => {
    await pipit?.close();
    await unbuilt?.close();
  });

  /** Every kind of answer the server gives, each with what it must be. */
  const cases = (): Array<{
    what: string;
    url: string;
    init?: RequestInit;
    status: number;
    html?: boolean;
  }> => [
    { what: 'the shell', url: `${pipit.url}/`, status: 200, html: true },
    { what: 'a page no route matches', url: `${pipit.url}/no/such/page`, status: 404, html: true },
    { what: 'a fingerprinted asset', url: `${pipit.url}/assets/${script}`, status: 200 },
    { what: 'the service worker', url: `${pipit.url}/sw.js`, status: 200 },
    { what: 'the web manifest', url: `${pipit.url}/manifest.webmanifest`, status: 200 },
    { what: 'an icon', url: `${pipit.url}/icons/pipit-192.png`, status: 200 },
    { what: 'a missing file', url: `${pipit.url}/nothing.txt`, status: 404 },
    {
      what: 'a method the files refuse',
      url: `${pipit.url}/`,
      init: { method: 'POST' },
      status: 405,
    },
    { what: 'API JSON', url: `${pipit.url}/api/health`, status: 200 },
    { what: 'an API 404', url: `${pipit.url}/api/no-such-endpoint`, status: 404 },
    {
      what: 'an API error',
      url: `${pipit.url}/api/auth/login`,
      init: { method: 'POST', body: '{}', headers: { 'Content-Type': 'application/json' } },
      status: 403,
    },
    { what: 'an upload', url: `${pipit.url}/api/uploads/${uploadId}`, status: 200 },
    {
      what: "an app's manifest that is not there",
      url: `${pipit.url}/apps/${createId()}/manifest.webmanifest`,
      status: 404,
    },
    {
      what: "an app's icon that is not there",
      url: `${pipit.url}/apps/${createId()}/icons/192.png`,
      status: 404,
    },
    { what: '/metrics without the token', url: `${pipit.url}/metrics`, status: 401 },
    {
      what: '/metrics',
      url: `${pipit.url}/metrics`,
      init: { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } },
      status: 200,
    },
    { what: '/metrics when not configured', url: `${unbuilt.url}/metrics`, status: 404 },
    {
      what: 'the server error page',
      url: `${unbuilt.url}/`,
      init: { headers: { Accept: 'text/html' } },
      status: 500,
      html: true,
    },
  ];

  it('sends nosniff, the referrer policy, DENY framing, a request id and a CSP that forbids framing', async () => {
    expect(script).toBeDefined();
    for (const { what, url, init, status, html } of cases()) {
      const response = await fetch(url, init);
      await response.arrayBuffer();
      expect(response.status, what).toBe(status);
      const header = (name: string) => response.headers.get(name);
      expect(header('x-content-type-options'), what).toBe('nosniff');
      expect(header('referrer-policy'), what).toBe('strict-origin-when-cross-origin');
      expect(header('x-frame-options'), what).toBe('DENY');
      expect(header('x-request-id'), what).toMatch(/^[0-9a-f]{16}$/);
      expect(header('strict-transport-security'), what).toBeNull();
      const csp = header('content-security-policy') ?? '';
      if (what === 'an upload') expect(csp, what).toBe("default-src 'none'; sandbox");
      else expect(csp, what).toContain("frame-ancestors 'none'");
      if (html) {
        expect(csp, what).toContain("script-src 'self'");
        expect(csp, what).not.toContain('unsafe-inline');
      }
    }
  });

  it('gives JSON and other resources a policy under which nothing loads', async () => {
    for (const url of [
      `${pipit.url}/api/health`,
      `${pipit.url}/api/no-such-endpoint`,
      `${pipit.url}/apps/${createId()}/manifest.webmanifest`,
      `${pipit.url}/metrics`,
    ]) {
      const response = await fetch(url);
      await response.arrayBuffer();
      expect(response.headers.get('content-security-policy'), url).toBe(RESOURCE_CSP);
    }
  });

  it("allows the pages' own inline scripts by their hashes, and no other script", async () => {
    for (const page of ['/', '/about', `/apps/${createId()}/pwa`]) {
      const response = await fetch(`${pipit.url}${page}`);
      const html = await response.text();
      // Every executed inline script of the built page (a JSON data block never runs).
      const inline = [
        ...html.matchAll(
          /<script(?![^>]*\bsrc=)(?![^>]*application\/json)[^>]*>([\s\S]*?)<\/script>/g,
        ),
      ].map(([, text = '']) => `'${sha256Source(text)}'`);
      // The installed app's page has a third: its first screen kept on the device.
      expect(inline.length, `${page}: the head scripts are inline`).toBe(
        page.endsWith('/pwa') ? 3 : 2,
      );
      const policy = response.headers.get('content-security-policy') ?? '';
      const scriptSrc = /(?:^|; )script-src ([^;]*)/.exec(policy)?.[1]?.split(' ');
      // One policy for every page: this origin and the head scripts' hashes, and nothing else.
      expect(scriptSrc?.[0], page).toBe("'self'");
      expect(new Set(scriptSrc?.slice(1)), page).toEqual(
        new Set(Object.values(HEAD_SCRIPTS).map((script) => `'${sha256Source(script)}'`)),
      );
      for (const hash of inline) expect(scriptSrc, page).toContain(hash);
    }
  });

  it("allows the pages' own <style> elements by their hashes, and no other inline style", async () => {
    for (const page of ['/', '/about', `/apps/${createId()}/pwa`, '/app.html']) {
      const response = await fetch(`${pipit.url}${page}`);
      const html = await response.text();
      const inline = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map(
        ([, text = '']) => `'${sha256Source(text)}'`,
      );
      // The installed app's page carries its style sheet (vite.config.ts); the site's link theirs.
      const carried = page.endsWith('/pwa') || page === '/app.html';
      expect(inline.length, page).toBe(carried ? 1 : 0);
      expect(html.includes('rel="stylesheet"'), page).toBe(!carried);
      const policy = response.headers.get('content-security-policy') ?? '';
      const styleSrc = /(?:^|; )style-src ([^;]*)/.exec(policy)?.[1]?.split(' ');
      expect(styleSrc, page).toEqual(["'self'", ...inline]);
    }
  });

  it("puts the service worker under the shell's policy, which lets it fetch this origin", async () => {
    const response = await fetch(`${pipit.url}/sw.js`);
    await response.arrayBuffer();
    expect(response.headers.get('content-security-policy')).toBe(contentSecurityPolicy());
    expect(contentSecurityPolicy()).toContain("connect-src 'self'");
  });
});

describe('Strict-Transport-Security', () => {
  const servers: RunningPipit[] = [];
  afterAll(async () => {
    for (const server of servers) await server.close();
  });

  /** The HSTS header of a request with the given Host (fetch cannot choose it). */
  async function hstsFor(pipit: RunningPipit, headers: Record<string, string>) {
    const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
    const answer = await rawRequest(
      pipit.port,
      `GET /api/health HTTP/1.1\r\n${lines.join('')}Connection: close\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    return /^strict-transport-security: (.*)$/im.exec(answer)?.[1]?.trim() ?? null;
  }

  it('is sent when the public origin is https, and never to localhost', async () => {
    const pipit = await startPipit({ env: { PUBLIC_ORIGIN: 'https://pipit.example.org' } });
    servers.push(pipit);
    expect(await hstsFor(pipit, { Host: 'pipit.example.org' })).toBe(HSTS);
    expect(HSTS).toBe('max-age=63072000; includeSubDomains');
    expect(await hstsFor(pipit, { Host: `localhost:${pipit.port}` })).toBeNull();
    expect(await hstsFor(pipit, { Host: `127.0.0.1:${pipit.port}` })).toBeNull();
    expect(await hstsFor(pipit, { Host: 'app.localhost' })).toBeNull();
  });

  it('is never sent for a public origin on localhost, even over https', async () => {
    const pipit = await startPipit({ env: { PUBLIC_ORIGIN: 'https://localhost:8443' } });
    servers.push(pipit);
    expect(await hstsFor(pipit, { Host: 'localhost:8443' })).toBeNull();
  });

  it('follows X-Forwarded-Proto only from a trusted proxy', async () => {
    const trusting = await startPipit({ env: { TRUST_PROXY: 'true' } });
    const direct = await startPipit();
    servers.push(trusting, direct);
    const https = { Host: 'pipit.example.org', 'X-Forwarded-Proto': 'https' };
    expect(await hstsFor(trusting, https)).toBe(HSTS);
    expect(await hstsFor(trusting, { ...https, 'X-Forwarded-Proto': 'http' })).toBeNull();
    expect(await hstsFor(trusting, { ...https, Host: 'localhost' })).toBeNull();
    expect(await hstsFor(direct, https)).toBeNull();
  });
});

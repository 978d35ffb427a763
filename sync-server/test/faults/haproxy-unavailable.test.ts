import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, HAPROXY, haproxyConfig } from '../../src/cluster/launch';

/**
 * When no instance is ready — the database down takes every one out of HAProxy through
 * /api/ready — a visitor gets Pipit's page saying what is happening, not HAProxy's bare 503
 * (docs/scaling.md#when-no-instance-is-ready). HAProxy as `npm run cluster` configures it, with
 * one instance that is not there.
 */
describe('HAProxy with no instance ready', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'pipit-haproxy-'));
  let haproxy: ChildProcess | undefined;
  afterAll(() => {
    haproxy?.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers Pipit’s page: what is happening, what still works, when it tries again', async () => {
    const [front, down] = [await freePort(), await freePort()];
    const config = path.join(dir, 'haproxy.cfg');
    writeFileSync(config, haproxyConfig(front, [{ name: 'pipit-1', port: down }]));
    haproxy = spawn(HAPROXY, ['-f', config, '-db'], { stdio: 'ignore' });
    const url = `http://127.0.0.1:${front}`;
    await expect
      .poll(
        async () => {
          try {
            return (await fetch(`${url}/apps/x`)).status;
          } catch {
            return 0;
          }
        },
        { timeout: 15_000 },
      )
      .toBe(503);
    for (const address of ['/', '/apps/x/pwa', '/api/ready']) {
      const response = await fetch(`${url}${address}`);
      expect(response.status, address).toBe(503);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('retry-after')).toBe('30');
      expect(response.headers.get('cache-control')).toBe('no-store');
      const page = await response.text();
      expect(page).toContain('<title>Pipit will be back in a moment</title>');
      expect(page).toContain('Apps you installed keep working');
      expect(page).toContain('<html lang="en">');
      // Whole: the length HAProxy sends is the page's own.
      expect(Buffer.byteLength(page)).toBe(Number(response.headers.get('content-length')));
    }
  });
});

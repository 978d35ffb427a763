import { afterEach, describe, expect, it, vi } from 'vitest';

const TOKEN = 'Qx7_kP2-mZ9rT4vW8yB1nC5dF3gH6jL0';

/** What the SDK was started with: `init`'s options, captured instead of starting it. */
const sentry = vi.hoisted(() => ({ options: undefined as Record<string, unknown> | undefined }));
vi.mock('@sentry/browser', () => ({
  init: (options: Record<string, unknown>) => {
    sentry.options = options;
  },
  browserTracingIntegration: () => ({ name: 'BrowserTracing' }),
  captureException: () => undefined,
  getCurrentScope: () => ({ addEventProcessor: () => undefined }),
  makeBrowserOfflineTransport: (make: unknown) => make,
  makeFetchTransport: () => ({}),
  withScope: () => undefined,
}));

describe('secrets in URLs, before a report leaves the browser', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('is applied by the SDK’s beforeSend to a report made on /join/{token}', async () => {
    vi.stubGlobal('window', {
      location: { origin: 'https://pipit.example', pathname: `/join/${TOKEN}` },
    });
    const { startSdk } = await import('./sdk');
    startSdk({
      dsn: 'https://key@errors.example.org/1',
      tunnel: '/monitoring?o=acme&p=1',
      release: 'pipit@test',
      environment: 'test',
    });
    const beforeSend = sentry.options?.beforeSend as (event: unknown) => unknown;
    const sent = beforeSend({
      event_id: 'e'.repeat(32),
      request: { url: `https://pipit.example/join/${TOKEN}` },
      transaction: `/join/${TOKEN}`,
      tags: { route: '/join/$token' },
      breadcrumbs: [
        { category: 'navigation', data: { from: '/home', to: `/join/${TOKEN}` } },
        { category: 'fetch', data: { url: `/api/space-invites/${TOKEN}/accept` } },
        { category: 'console', message: `failed at /join/${TOKEN}` },
      ],
      exception: { values: [{ type: 'Error', value: `Could not open /join/${TOKEN}` }] },
    });
    expect(JSON.stringify(sent)).not.toContain(TOKEN);
    expect(sent).toMatchObject({
      request: { url: 'https://pipit.example/join/[Filtered]' },
      transaction: '/join/[Filtered]',
      tags: { route: '/join/$token' },
      breadcrumbs: [
        { data: { to: '/join/[Filtered]' } },
        { data: { url: '/api/space-invites/[Filtered]/accept' } },
        { message: 'failed at /join/[Filtered]' },
      ],
      exception: { values: [{ value: 'Could not open /join/[Filtered]' }] },
    });
  });
});

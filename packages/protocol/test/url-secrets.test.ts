import { describe, expect, it } from 'vitest';
import { redactUrlSecrets, redactUrlSecretsInText } from '../src/url-secrets';

const TOKEN = 'Qx7_kP2-mZ9rT4vW8yB1nC5dF3gH6jL0';

describe('secrets in URLs, in any string of a report', () => {
  it.each([
    ['/join/{token}', `/join/${TOKEN}`, '/join/[Filtered]'],
    ['a full URL', `https://pipit.example/join/${TOKEN}`, 'https://pipit.example/join/[Filtered]'],
    ['a trailing slash and a query', `/join/${TOKEN}/?x=1`, '/join/[Filtered]/?x=1'],
    ['any case', `/Join/${TOKEN}`, '/Join/[Filtered]'],
    ['a token cut short', '/join/Qx7_kP', '/join/[Filtered]'],
    ['the API', `/api/space-invites/${TOKEN}`, '/api/space-invites/[Filtered]'],
    [
      'accepting, in words',
      `POST /api/space-invites/${TOKEN}/accept failed`,
      'POST /api/space-invites/[Filtered]/accept failed',
    ],
    [
      'a path inside a query',
      `/login?redirect=%2Fjoin%2F${TOKEN}`,
      '/login?redirect=%2Fjoin%2F[Filtered]',
    ],
    // Found by a review: forms the first redaction let through.
    [
      'a path encoded twice (a redirect inside a redirect)',
      `/signup?next=%2Flogin%3Fredirect%3D%252Fjoin%252F${TOKEN}`,
      '/signup?next=%2Flogin%3Fredirect%3D%252Fjoin%252F[Filtered]',
    ],
    [
      'a path encoded twice, with no plain slash in the text',
      `next%3D%252Fjoin%252F${TOKEN}`,
      'next%3D%252Fjoin%252F[Filtered]',
    ],
    ['a path encoded three times', `%25252Fjoin%25252F${TOKEN}`, '%25252Fjoin%25252F[Filtered]'],
    [
      'JSON-escaped slashes',
      `{"url":"https:\\/\\/pipit.example\\/join\\/${TOKEN}"}`,
      '{"url":"https:\\/\\/pipit.example\\/join\\/[Filtered]"}',
    ],
    [
      'JSON inside JSON',
      `"{\\"to\\":\\"\\\\\\/join\\\\\\/${TOKEN}\\"}"`,
      '"{\\"to\\":\\"\\\\\\/join\\\\\\/[Filtered]\\"}"',
    ],
    [
      'the API, JSON-escaped',
      `POST \\/api\\/space-invites\\/${TOKEN}\\/accept`,
      'POST \\/api\\/space-invites\\/[Filtered]\\/accept',
    ],
    [
      'an emailed link in words',
      'Opened /reset-password?token=abc123&x=1',
      'Opened /reset-password?token=[Filtered]&x=1',
    ],
    [
      'a secret-named parameter',
      '/x?reset_token=abc#session_id=def',
      '/x?reset_token=[Filtered]#session_id=[Filtered]',
    ],
  ])('replaces %s', (_what, text, redacted) => {
    expect(redactUrlSecretsInText(text)).toBe(redacted);
  });

  it.each([
    ['a route’s notation', '/join/$token'],
    ['what was replaced already', '/join/[Filtered]'],
    ['an app’s page', '/apps/abcdefghijklmnopqrstuvwxyz/edit'],
    ['other parameters', '/explore?q=habits&page=2'],
    ['words', 'Cannot read properties of undefined'],
    ['a JSON-escaped route notation', '\\/join\\/$token'],
    // A token alone, outside any path (a query key, a message that names it), cannot be told from
    // any other word: it is not recognised (docs/product/error-reporting.md).
    ['a token alone', `Invite ${TOKEN} failed`],
  ])('keeps %s', (_what, text) => {
    expect(redactUrlSecretsInText(text)).toBe(text);
  });

  it('walks every field, keys included, and leaves other values alone', () => {
    const event = {
      request: { url: `http://localhost/join/${TOKEN}` },
      breadcrumbs: { values: [{ data: { to: `/join/${TOKEN}` }, message: `at /join/${TOKEN}` }] },
      extra: { [`/join/${TOKEN}`]: 1, n: 2, ok: true, none: null },
    };
    const redacted = redactUrlSecrets(event);
    expect(JSON.stringify(redacted)).not.toContain(TOKEN);
    expect(redacted.extra).toEqual({ '/join/[Filtered]': 1, n: 2, ok: true, none: null });
    // The input is not changed.
    expect(event.request.url).toContain(TOKEN);
  });

  it('filters what is nested past any report’s depth instead of walking it', () => {
    let deep: unknown = `/join/${TOKEN}`;
    for (let i = 0; i < 10_000; i++) deep = { deep };
    expect(JSON.stringify(redactUrlSecrets(deep))).not.toContain(TOKEN);
  });

  it('reads a hostile string of a report’s size (1 MiB) in one pass', () => {
    // Each pattern is linear: a backtracking one took minutes on these, past the test's timeout.
    for (const text of [
      `?${'token'.repeat(200_000)}`,
      '?a'.repeat(500_000),
      `?${'x'.repeat(1_000_000)}=`,
      '/join/'.repeat(170_000),
      `/join/${'%'.repeat(1_000_000)}`,
      // The slashes' other forms: runs of backslashes and of `25`, after a prefix and not.
      '\\'.repeat(1_000_000),
      `/join${'\\'.repeat(1_000_000)}`,
      '/join\\'.repeat(150_000),
      `%${'25'.repeat(500_000)}`,
      `%2Fjoin%${'25'.repeat(500_000)}`,
      '%25'.repeat(330_000),
      '%2Fjoin%252'.repeat(90_000),
      `/api${'\\'.repeat(500_000)}/space-invites${'\\'.repeat(500_000)}`,
    ]) {
      expect(redactUrlSecretsInText(text).length).toBeGreaterThan(0);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { redactReport, redactUrl } from '../src/index';

/** An event as @sentry/browser builds it, with everything a report must never carry. */
const EVENT = {
  event_id: 'a'.repeat(32),
  exception: { values: [{ type: 'TypeError', value: 'x is undefined' }] },
  request: {
    url: 'https://pipit.example/reset-password?token=abc123#top',
    method: 'GET',
    headers: {
      'User-Agent': 'Chrome/156',
      Referer: 'https://pipit.example/?q=secret',
      Cookie: 'pipit_session=1',
    },
    cookies: { pipit_session: '1' },
    query_string: 'token=abc123',
    data: { password: 'hunter2hunter2' },
  },
  user: { id: 'u1', email: 'ada@example.org', ip_address: '10.0.0.1', username: 'ada' },
  extra: { form: { password: 'hunter2hunter2', name: 'Ada' }, apiKey: 'k', count: 3 },
  contexts: { browser: { name: 'Chrome' }, auth: { authorization: 'Bearer x', sessionId: 's' } },
  breadcrumbs: [
    { category: 'console', message: 'saving', data: { arguments: [{ habit: 'Stretch' }] } },
    {
      category: 'navigation',
      data: { from: '/login?redirect=%2Fhome', to: '/verify-email?token=t' },
    },
    { category: 'fetch', data: { url: '/api/explore?q=plants', method: 'GET', status_code: 200 } },
    { category: 'ui.click', message: 'main > button.rt-button[aria-label="Delete Stretch"]' },
  ],
};

describe('redactReport', () => {
  const out = redactReport(EVENT) as typeof EVENT;

  it('keeps the request’s method, path and browser only', () => {
    expect(out.request).toEqual({
      url: 'https://pipit.example/reset-password',
      method: 'GET',
      headers: { 'User-Agent': 'Chrome/156' },
    });
  });

  it('keeps no user details but the id', () => {
    expect(out.user).toEqual({ id: 'u1' });
  });

  it('filters secret-looking keys at any depth and keeps the rest', () => {
    expect(out.extra).toEqual({
      form: { password: '[Filtered]', name: 'Ada' },
      apiKey: '[Filtered]',
      count: 3,
    });
    expect(out.contexts).toEqual({
      browser: { name: 'Chrome' },
      auth: { authorization: '[Filtered]', sessionId: '[Filtered]' },
    });
  });

  it('cuts breadcrumb URLs at the path, drops console arguments and selector attribute values', () => {
    expect(out.breadcrumbs).toEqual([
      { category: 'console', message: 'saving' },
      { category: 'navigation', data: { from: '/login', to: '/verify-email' } },
      { category: 'fetch', data: { url: '/api/explore', method: 'GET', status_code: 200 } },
      { category: 'ui.click', message: 'main > button.rt-button' },
    ]);
    expect(JSON.stringify(out)).not.toMatch(/Stretch|hunter2|abc123|pipit_session|ada@example/);
  });

  it('keeps what makes the report useful', () => {
    expect(out.exception).toEqual(EVENT.exception);
    expect(out.event_id).toBe(EVENT.event_id);
  });

  it('leaves values that are not reports alone', () => {
    expect(redactReport('text')).toBe('text');
    expect(redactReport(null)).toBeNull();
    expect(redactReport({ event_id: 'x' })).toEqual({ event_id: 'x' });
  });
});

describe('redactUrl', () => {
  it('cuts the query and the fragment', () => {
    expect(redactUrl('/a/b?c=d#e')).toBe('/a/b');
    expect(redactUrl('/a#e?x')).toBe('/a');
    expect(redactUrl('https://x.example/p')).toBe('https://x.example/p');
  });
});

import { describe, expect, it } from 'vitest';
import { notificationTarget } from './notification-target';

describe('notificationTarget', () => {
  const origin = 'https://pipit.example';

  it('opens the path on this origin, or the home page', () => {
    expect(notificationTarget({ path: '/apps/a/pwa?x=1' }, origin)).toBe(
      `${origin}/apps/a/pwa?x=1`,
    );
    expect(notificationTarget({ path: '//evil.example/x' }, origin)).toBe(`${origin}/`);
    expect(notificationTarget({ path: 'javascript:alert(1)' }, origin)).toBe(`${origin}/`);
    expect(notificationTarget({ path: 'https://evil.example/' }, origin)).toBe(`${origin}/`);
    expect(notificationTarget(null, origin)).toBe(`${origin}/`);
    expect(notificationTarget({ path: 3 }, origin)).toBe(`${origin}/`);
  });
});

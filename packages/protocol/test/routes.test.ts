import { describe, expect, it } from 'vitest';
import {
  createId,
  DYNAMIC_ROUTES,
  matchRoute,
  RESERVED_USERNAMES,
  STATIC_ROUTES,
} from '../src/index';

describe('matchRoute', () => {
  it('matches every static route of docs/product/routes.md, with or without a trailing slash', () => {
    for (const route of STATIC_ROUTES) {
      expect(matchRoute(route)?.route).toBe(route);
      if (route !== '/') expect(matchRoute(`${route}/`)?.route).toBe(route);
    }
  });

  it('matches static routes case-insensitively, like the client router', () => {
    expect(matchRoute('/About')?.route).toBe('/about');
    expect(matchRoute('/DOCS/Platform')?.route).toBe('/docs/platform');
  });

  it('never lets /{username} shadow a static route: every static first segment is reserved', () => {
    for (const route of STATIC_ROUTES) {
      const first = route.split('/')[1];
      if (first) expect(RESERVED_USERNAMES.has(first), first).toBe(true);
    }
  });

  it('matches profiles by username, lowercased', () => {
    expect(matchRoute('/ada_lovelace')).toEqual({
      route: '/$username',
      params: { username: 'ada_lovelace' },
    });
    expect(matchRoute('/Ada')).toEqual({ route: '/$username', params: { username: 'ada' } });
  });

  it('answers no match for reserved and malformed usernames', () => {
    for (const path of [
      '/www',
      '/api',
      '/monitoring',
      '/ab',
      '/1abc',
      '/a'.padEnd(40, 'b'),
      '/a.b',
    ]) {
      expect(matchRoute(path), path).toBeNull();
    }
  });

  it('matches the app routes only for a valid id and a known sub-page', () => {
    const id = createId();
    expect(matchRoute(`/apps/${id}`)).toEqual({ route: '/apps/$id', params: { id } });
    for (const sub of ['edit', 'install', 'pwa'] as const) {
      expect(matchRoute(`/apps/${id}/${sub}`)).toEqual({
        route: `/apps/$id/${sub}`,
        params: { id },
      });
    }
    expect(matchRoute(`/apps/${id}/settings`)).toBeNull();
    expect(matchRoute('/apps/not-an-id')).toBeNull();
    expect(matchRoute(`/apps/${id}/edit/more`)).toBeNull();
  });

  it('answers no match for deeper unknown paths', () => {
    for (const path of ['/docs', '/docs/unknown', '/legal', '/about/team', '/x/y/z', '/account']) {
      expect(matchRoute(path), path).toBeNull();
    }
  });

  it('matches an invitation link only with a whole token', () => {
    const token = 'aB3_-'.repeat(6) + 'xy';
    expect(matchRoute(`/join/${token}`)).toEqual({ route: '/join/$token', params: { token } });
    expect(matchRoute(`/join/${token.slice(1)}`)).toBeNull();
    expect(matchRoute(`/join/${token}/more`)).toBeNull();
    expect(matchRoute('/join/not a token')).toBeNull();
  });

  it('lists the six dynamic routes of docs/product/routes.md', () => {
    expect(DYNAMIC_ROUTES).toHaveLength(6);
  });
});

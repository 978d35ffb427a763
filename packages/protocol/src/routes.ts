import { isId } from './ids';
import { isReservedUsername, USERNAME_PATTERN } from './usernames';

/**
 * Every static route of docs/product/routes.md. The server answers 404 for any path that none of
 * these match.
 */
export const STATIC_ROUTES = [
  '/',
  '/home',
  '/apps',
  '/studio',
  '/create',
  '/archive',
  '/explore',
  '/login',
  '/signup',
  '/forgot-password',
  '/reset-password',
  '/verify-email',
  '/confirm-email-change',
  '/account/edit',
  '/account/settings',
  '/about',
  '/contact',
  '/faq',
  '/feedback',
  '/pricing',
  '/docs/ai-actions',
  '/docs/platform',
  '/docs/themes',
  '/legal/policy',
  '/legal/privacy',
  '/legal/terms',
  '/demo',
  '/demo1',
  // The operator's inbox (docs/product/error-reporting.md): not found for everyone but operators (docs/product/roles.md).
  '/admin',
] as const;

/**
 * The public pages whose content is known when the client is built: the build renders each to
 * HTML as a signed-out visitor sees it (client/prerender/entry.tsx), and the server sends that to
 * visitors without a session, so the page shows before its JavaScript runs (docs/performance.md).
 */
export const PRERENDERED_ROUTES = [
  '/',
  '/about',
  '/faq',
  '/pricing',
  '/docs/ai-actions',
  '/docs/platform',
  '/docs/themes',
  '/legal/policy',
  '/legal/privacy',
  '/legal/terms',
] as const satisfies readonly StaticRoute[];

/** Where the build writes a pre-rendered page, in the client's output (`/` is `index`). */
export function prerenderedFile(route: (typeof PRERENDERED_ROUTES)[number]): string {
  return `/prerendered/${route === '/' ? 'index' : route.slice(1)}.html`;
}

/**
 * The public pages whose content lives in the database: the server renders them per request for a
 * visitor without a session, with the API answers they were drawn from sent along, so the page
 * shows before its JavaScript runs and hydrates without asking again (docs/performance.md).
 */
export const SERVER_RENDERED_ROUTES = [
  '/explore',
  '/$username',
  '/apps/$id',
] as const satisfies readonly RouteMatch['route'][];

/** The dynamic routes of docs/product/routes.md, in TanStack Router's `$param` notation. */
export const DYNAMIC_ROUTES = [
  '/$username',
  '/apps/$id',
  '/apps/$id/edit',
  '/apps/$id/install',
  '/apps/$id/pwa',
  // An invitation to a shared space (docs/product/spaces.md).
  '/join/$token',
] as const;

export type StaticRoute = (typeof STATIC_ROUTES)[number];
export type DynamicRoute = (typeof DYNAMIC_ROUTES)[number];
export type RouteMatch =
  | { route: StaticRoute; params: Record<string, never> }
  | { route: '/$username'; params: { username: string } }
  | { route: '/join/$token'; params: { token: string } }
  | { route: Exclude<DynamicRoute, '/$username' | '/join/$token'>; params: { id: string } };

/** An invitation link's token (spaces.ts spaceInviteTokenSchema). */
const INVITE_TOKEN = /^[A-Za-z0-9_-]{32}$/u;

const staticSet: ReadonlySet<string> = new Set(STATIC_ROUTES);
const APP_SUBPAGES = new Set(['edit', 'install', 'pwa']);

/**
 * Matches a pathname against docs/product/routes.md the way the client router does:
 * case-insensitively for static segments, a trailing slash tolerated. Static routes win over
 * `/$username` (their names are reserved usernames), and a parameter that cannot be valid (an id
 * that is not an id, a username that breaks the rules or is reserved) is no match, so the answer is
 * the 404 page.
 */
export function matchRoute(pathname: string): RouteMatch | null {
  const path = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  const lower = path.toLowerCase();
  if (staticSet.has(lower)) return { route: lower as StaticRoute, params: {} };

  const segments = path.split('/').slice(1);
  const [first, id, sub] = segments;
  const username = first?.toLowerCase();
  if (segments.length === 1 && username && USERNAME_PATTERN.test(username)) {
    return isReservedUsername(username) ? null : { route: '/$username', params: { username } };
  }
  if (username === 'join' && segments.length === 2 && id && INVITE_TOKEN.test(id)) {
    return { route: '/join/$token', params: { token: id } };
  }
  if (username === 'apps' && id && isId(id)) {
    if (segments.length === 2) return { route: '/apps/$id', params: { id } };
    const page = sub?.toLowerCase();
    if (segments.length === 3 && page && APP_SUBPAGES.has(page)) {
      return { route: `/apps/$id/${page}` as '/apps/$id/edit', params: { id } };
    }
  }
  return null;
}

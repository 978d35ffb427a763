import type { Context } from 'hono';
import { matchedRoutes } from 'hono/route';

/**
 * The pattern of the handler that answered (`/api/apps/:id`), for the request metrics. Middleware
 * (registered with `use`, method `ALL`) matches every path, so it does not count; a request no
 * handler matched is `/api/*`.
 */
export function matchedRoute(c: Context): string {
  const handlers = matchedRoutes(c).filter((route) => route.method !== 'ALL');
  return handlers.at(-1)?.path ?? '/api/*';
}

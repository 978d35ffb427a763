// zod/mini, in a module of its own: explore's route reads its search with it, every page loads
// the route tree, and a module's classic zod schemas would all come along (zod's builders are not
// known to be pure, so a bundler keeps every one of them).
import * as zm from 'zod/mini';
import { pageSearchSchema, queryText } from './page-search';
import { appCardSchema } from './published-app';
import { lazySchema } from './lazy-schema';

export const EXPLORE_SORTS = ['new', 'popular'] as const;

/**
 * `GET /api/explore`: public published apps that are not archived. The explore page's address
 * carries the same query, read by the same schema (exploreSearchSchema), so a search means the
 * same on both sides: the text trimmed, a tag and an author trimmed and lowercased.
 */
export const exploreQuerySchema = lazySchema(() =>
  zm.object({
    q: zm._default(zm.pipe(queryText(), zm.string().check(zm.trim(), zm.maxLength(100))), ''),
    tag: zm.optional(
      zm.pipe(
        zm.pipe(queryText(), zm.string().check(zm.trim(), zm.toLowerCase(), zm.maxLength(24))),
        zm.transform((tag: string) => tag || undefined),
      ),
    ),
    /** Only this author's apps (by username, which is lowercase). */
    author: zm.optional(
      zm.pipe(
        zm.pipe(queryText(), zm.string().check(zm.trim(), zm.toLowerCase(), zm.maxLength(30))),
        zm.transform((author: string) => author || undefined),
      ),
    ),
    sort: zm._default(zm.enum(EXPLORE_SORTS), 'new'),
    page: zm._default(zm.coerce.number().check(zm.int(), zm.minimum(1), zm.maximum(1000)), 1),
  }),
);
/** `/explore`'s search: the API's query, with a part the API would refuse read as absent. */
export const exploreSearchSchema = lazySchema(() => pageSearchSchema(exploreQuerySchema));

/**
 * The API address of a search as the page holds it: only what is set, so the same search is one
 * address (and one cached copy offline).
 */
export function exploreApiPath(search: Partial<zm.output<typeof exploreQuerySchema>>): string {
  const params: Array<[string, string]> = [];
  if (search.q) params.push(['q', search.q]);
  if (search.tag) params.push(['tag', search.tag]);
  if (search.author) params.push(['author', search.author]);
  params.push(['sort', search.sort ?? 'new']);
  if (search.page && search.page > 1) params.push(['page', String(search.page)]);
  const query = params.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
  return `/api/explore?${query}`;
}
export type ExploreQuery = zm.input<typeof exploreQuerySchema>;
/** A search as both sides read it. */
export type ExploreParams = zm.output<typeof exploreQuerySchema>;

/**
 * `GET /api/explore`'s answer: a page of app cards. zod/mini like the query: explore and the landing
 * page read it when they draw their first cards, and a classic schema here brought classic zod
 * (13 KB gzip, and its schemas built on the main thread) to every public page.
 */
export const exploreResponseSchema = lazySchema(() =>
  zm.object({
    apps: zm.array(appCardSchema),
    page: zm.int(),
    pageCount: zm.int(),
    total: zm.int(),
    /** The most used tags among public apps, most used first (at most 20). */
    tags: zm.array(zm.object({ tag: zm.string(), count: zm.int() })),
  }),
);
export type ExploreResponse = zm.infer<typeof exploreResponseSchema>;

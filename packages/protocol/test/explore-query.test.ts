import { describe, expect, it } from 'vitest';
import {
  errorGroupsQuerySchema,
  exploreApiPath,
  exploreQuerySchema,
  exploreSearchSchema,
  pageSearchSchema,
} from '../src/index';

/** What the server reads from an address: every value a string (Hono's `c.req.query()`). */
function serverQueryOf(apiPath: string): Record<string, string> {
  const query = apiPath.split('?')[1] ?? '';
  return Object.fromEntries(
    query
      .split('&')
      .filter(Boolean)
      .map((pair) => pair.split('=').map((part) => decodeURIComponent(part)) as [string, string]),
  );
}

describe('explore’s query, on the page and on the server', () => {
  it('normalises a search the same on both sides: text trimmed, tag and author lowercased too', () => {
    const typed = {
      q: '  Garden ',
      tag: ' Plants ',
      author: ' Ada_L ',
      sort: 'popular',
      page: '2',
    };
    const expected = { q: 'Garden', tag: 'plants', author: 'ada_l', sort: 'popular', page: 2 };
    expect(exploreQuerySchema.parse(typed)).toEqual(expected);
    expect(exploreSearchSchema.parse(typed)).toEqual(expected);
    // The router reads `?q=42&page=2` as numbers, the server as strings: the same search.
    expect(exploreSearchSchema.parse({ q: 42, tag: 2026, page: 2 })).toEqual(
      exploreQuerySchema.parse({ q: '42', tag: '2026', page: '2' }),
    );
    // A blank tag or author is no filter, on both sides.
    expect(exploreSearchSchema.parse({ tag: '  ', author: '' })).toEqual(
      exploreQuerySchema.parse({ tag: '  ', author: '' }),
    );
    expect(exploreQuerySchema.parse({ tag: '  ' }).tag).toBeUndefined();
  });

  it.each([
    ['sort', 'best'],
    ['page', '0'],
    ['page', 'two'],
    ['page', '1001'],
    ['q', 'x'.repeat(101)],
    ['tag', 't'.repeat(25)],
    ['author', 'a'.repeat(31)],
  ])('refuses %s=%s on the server, and reads it as absent on the page', (key, value) => {
    const query = { q: 'swap', tag: 'garden', sort: 'popular', page: '3', [key]: value };
    expect(exploreQuerySchema.safeParse(query).success).toBe(false);
    const { [key]: _refused, ...rest } = query;
    expect(exploreSearchSchema.parse(query)).toEqual(exploreQuerySchema.parse(rest));
  });

  it('asks the API for exactly the search the page shows', () => {
    for (const address of [
      {},
      { q: '  Plant swap & more ', tag: 'Garden', sort: 'popular' },
      { q: '100%', author: 'Ada', page: 7 },
      { q: 'a+b=c?', tag: 'x/y', page: 'nope' },
      { q: 'ünïcödé 🌱', sort: 'best' },
    ]) {
      const shown = exploreSearchSchema.parse(address);
      const asked = exploreQuerySchema.parse(serverQueryOf(exploreApiPath(shown)));
      expect(asked).toEqual(shown);
    }
  });

  it('reads the inbox’s page the same way: a page the API refuses is the first', () => {
    const page = pageSearchSchema(errorGroupsQuerySchema);
    expect(page.parse({ page: '0' })).toEqual({ page: 1 });
    expect(page.parse({ page: 3 })).toEqual(errorGroupsQuerySchema.parse({ page: '3' }));
  });
});

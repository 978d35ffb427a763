// zod/mini: pages' search schemas are read by the route tree, which every page loads.
import * as zm from 'zod/mini';
import type { $ZodShape } from 'zod/v4/core';

/**
 * A page whose address carries an API's query (explore's search, the inbox's page) reads it with
 * that API's own schema, so both normalise the same input to the same query. One difference: a link
 * can be old or hand-edited, and the page should open all the same, so a field the API would refuse
 * reads as absent — its default, or nothing — where the API answers validation_failed. Every field
 * of the schema must accept being absent.
 */
export function pageSearchSchema<Shape extends $ZodShape>(api: zm.ZodMiniObject<Shape>) {
  const fields = Object.fromEntries(
    Object.entries(api.shape).map(([key, field]) => [
      key,
      zm.catch(field, () => zm.parse(field, undefined)),
    ]),
  );
  return zm.object(fields) as unknown as zm.ZodMiniObject<{
    [K in keyof Shape]: zm.ZodMiniCatch<Shape[K]>;
  }>;
}

/**
 * Text in a query. A page's router reads `?q=42` as the number 42 (search values are JSON where
 * they parse), the server as the string "42": both are the text "42".
 */
export const queryText = () =>
  zm.union([
    zm.string(),
    zm.pipe(
      zm.number(),
      zm.transform((n: number) => String(n)),
    ),
  ]);

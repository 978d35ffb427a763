import { z } from 'zod';

/**
 * A page whose address carries an API's query (explore's search, the inbox's page) reads it with
 * that API's own schema, so both normalise the same input to the same query. One difference: a link
 * can be old or hand-edited, and the page should open all the same, so a field the API would refuse
 * reads as absent — its default, or nothing — where the API answers validation_failed. Every field
 * of the schema must accept being absent.
 */
export function pageSearchSchema<Shape extends z.ZodRawShape>(api: z.ZodObject<Shape>) {
  const fields = Object.fromEntries(
    Object.entries(api.shape).map(([key, field]) => [
      key,
      (field as z.ZodType).catch(() => (field as z.ZodType).parse(undefined)),
    ]),
  );
  return z.object(fields) as unknown as z.ZodObject<{ [K in keyof Shape]: z.ZodCatch<Shape[K]> }>;
}

/**
 * Text in a query. A page's router reads `?q=42` as the number 42 (search values are JSON where
 * they parse), the server as the string "42": both are the text "42".
 */
export const queryText = () => z.union([z.string(), z.number().transform(String)]);

import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import * as zm from 'zod/mini';
import { $ZodObject, $ZodType } from 'zod/v4/core';
import { lazySchema } from '../src/lazy-schema';

describe('lazySchema', () => {
  it('builds nothing until the schema is used, then builds it once', () => {
    let builds = 0;
    const schema = lazySchema(() => {
      builds += 1;
      return zm.object({ name: zm.string().check(zm.minLength(1)) });
    });
    expect(builds).toBe(0);
    expect(zm.parse(schema, { name: 'Ada' })).toEqual({ name: 'Ada' });
    expect(schema.safeParse({ name: '' }).success).toBe(false);
    expect(Object.keys(schema.shape)).toEqual(['name']);
    expect(builds).toBe(1);
  });

  it('is a schema to zod: instanceof, nesting, discriminated unions, extension, defaults', () => {
    const icon = lazySchema(() =>
      zm.discriminatedUnion('kind', [
        zm.object({ kind: zm.literal('emoji'), emoji: zm.string() }),
        zm.object({ kind: zm.literal('image'), url: zm.string() }),
      ]),
    );
    const card = lazySchema(() => zm.object({ title: zm._default(zm.string(), ''), icon }));
    expect(card instanceof $ZodType).toBe(true);
    expect(card instanceof $ZodObject).toBe(true);
    const page = zm.object({ apps: zm.array(card) });
    expect(page.parse({ apps: [{ icon: { kind: 'emoji', emoji: '🐦' } }] })).toEqual({
      apps: [{ title: '', icon: { kind: 'emoji', emoji: '🐦' } }],
    });
    expect(page.safeParse({ apps: [{ icon: { kind: 'svg' } }] }).success).toBe(false);
    const extended = zm.extend(card, { views: zm.number() });
    expect(extended.parse({ icon: { kind: 'image', url: '/a.png' }, views: 2 })).toEqual({
      title: '',
      icon: { kind: 'image', url: '/a.png' },
      views: 2,
    });
    // A union of lazy schemas, and classic zod nesting one.
    const either = zm.union([card, lazySchema(() => zm.null())]);
    expect(either.parse(null)).toBeNull();
    expect(z.object({ card }).safeParse({ card: { icon: { kind: 'emoji' } } }).success).toBe(false);
  });

  it('is a Standard Schema (what the router reads a search with)', async () => {
    const search = lazySchema(() => zm.object({ page: zm._default(zm.number(), 1) }));
    expect('~standard' in search).toBe(true);
    const result = await search['~standard'].validate({});
    expect(result).toEqual({ value: { page: 1 } });
  });

  it('gives the same JSON Schema (what the AI provider is sent) as the schema itself', () => {
    const icon = () =>
      zm.discriminatedUnion('kind', [
        zm.object({ kind: zm.literal('emoji'), emoji: zm.string() }),
        zm.object({ kind: zm.literal('image'), url: zm.string() }),
      ]);
    const lazy = z.toJSONSchema(z.object({ icon: lazySchema(icon), size: z.number() }));
    expect(lazy).toEqual(z.toJSONSchema(z.object({ icon: icon(), size: z.number() })));
    expect(JSON.stringify(lazy)).toContain('"const":"emoji"');
  });

  it('reports its errors as the schema would', () => {
    const schema = lazySchema(() => zm.object({ n: zm.int() }));
    const result = schema.safeParse({ n: 1.5 });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['n']);
  });
});

import { describe, expect, it } from 'vitest';
import { appMetaSchema, LIMITS, themeSchema } from '../src/index';

describe('appMetaSchema', () => {
  it('fills defaults and normalises tags', () => {
    const meta = appMetaSchema.parse({ title: ' Habits ', tags: [' Health '] });
    expect(meta).toMatchObject({
      title: 'Habits',
      description: '',
      tags: ['health'],
    });
    // Archiving is the owner's, kept by the server, never part of the shared definition.
    expect(appMetaSchema.parse({ title: 'x', archived: true })).not.toHaveProperty('archived');
    expect(meta.icon.kind).toBe('emoji');
  });

  it.each([
    [{ title: '' }, 'title'],
    [{ title: 'x'.repeat(LIMITS.titleLength + 1) }, 'title'],
    [{ title: 'ok', description: 'x'.repeat(LIMITS.descriptionLength + 1) }, 'description'],
    [{ title: 'ok', tags: ['a', 'b', 'c', 'd', 'e', 'f'] }, 'tags'],
    [{ title: 'ok', tags: ['x'.repeat(LIMITS.tagLength + 1)] }, 'tags'],
    [{ title: 'ok', icon: { kind: 'image', url: 'javascript:alert(1)' } }, 'icon'],
  ])('rejects %j at %s', (input, path) => {
    const result = appMetaSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path[0]).toBe(path);
  });
});

describe('themeSchema', () => {
  it('defaults to an automatic light/dark meadow theme', () => {
    expect(themeSchema.parse({})).toMatchObject({ preset: 'meadow', mode: 'auto', custom: {} });
  });

  it('rejects colours that are not hex', () => {
    expect(themeSchema.safeParse({ custom: { primary: 'red' } }).success).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { usernameSchema } from '../src/index';

describe('usernameSchema', () => {
  it('accepts valid names and normalises case and spaces', () => {
    expect(usernameSchema.parse('  Ada_Lovelace ')).toBe('ada_lovelace');
    expect(usernameSchema.parse('abc')).toBe('abc');
    expect(usernameSchema.parse('a'.repeat(30))).toBe('a'.repeat(30));
  });

  it.each([
    ['ab', 'at least 3'],
    ['a'.repeat(31), 'at most 30'],
    ['1abc', 'Start with a letter'],
    ['ab.cd', 'only letters'],
    ['admin', 'reserved'],
    ['About', 'reserved'],
  ])('rejects %s with a message a person understands', (input, message) => {
    const result = usernameSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message).join(' ')).toContain(message);
  });
});

describe('sameOriginPathSchema', () => {
  it('accepts paths on this server and refuses anything a browser would send elsewhere', async () => {
    const { sameOriginPathSchema } = await import('../src/index');
    expect(sameOriginPathSchema.safeParse('/uploads/a.png').success).toBe(true);
    for (const url of [
      '//tracker.example/x.png',
      '/\\tracker.example/x.png',
      'https://x.example/a.png',
      'javascript:alert(1)',
      'uploads/a.png',
    ]) {
      expect(sameOriginPathSchema.safeParse(url).success, url).toBe(false);
    }
  });
});

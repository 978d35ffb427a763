import { describe, expect, it } from 'vitest';
import {
  checkFieldValues,
  coerceFieldValue,
  type Field,
  fieldSchema,
  formatFileReference,
  isIsoDate,
  parseFileReference,
  safeUrlSchema,
} from '../src/index';
import * as zm from 'zod/mini';

const f = (type: Field['type'], more: Partial<Field> = {}): Field =>
  fieldSchema.parse({ id: type, name: 'Value', type, ...more });

const ok = (field: Field, raw: unknown) => {
  const result = coerceFieldValue(field, raw);
  if (!result.ok) throw new Error(`expected ${String(raw)} to pass: ${result.message}`);
  return result.value;
};
const problem = (field: Field, raw: unknown) => {
  const result = coerceFieldValue(field, raw);
  return result.ok ? null : result.message;
};

describe('coerceFieldValue', () => {
  it('keeps trimmed text within the length limits', () => {
    expect(ok(f('text'), '  Hello ')).toBe('Hello');
    expect(ok(f('text'), 42)).toBe('42');
    expect(ok(f('longText'), 'a\nb')).toBe('a\nb');
    expect(problem(f('text'), 'x'.repeat(1_001))).toBe(
      'Value is too long: use at most 1,000 characters.',
    );
    expect(ok(f('longText'), 'x'.repeat(10_000))).toHaveLength(10_000);
    expect(problem(f('longText'), 'x'.repeat(10_001))).toContain('10,000 characters');
  });

  it('reads numbers from numbers and numeric text only', () => {
    expect(ok(f('number'), '12')).toBe(12);
    expect(ok(f('number'), ' -3.5 ')).toBe(-3.5);
    expect(ok(f('number'), '1e3')).toBe(1000);
    expect(ok(f('number'), 7)).toBe(7);
    for (const bad of ['abc', '0x10', 'Infinity', '1,5', '12px', NaN, Infinity, true, '1e400'])
      expect(problem(f('number'), bad), String(bad)).toBe(
        'Value must be a number, like 12 or 3.5.',
      );
  });

  it('reads yes/no answers', () => {
    expect(ok(f('boolean'), true)).toBe(true);
    for (const yes of ['true', 'Yes', 'on', '1']) expect(ok(f('boolean'), yes)).toBe(true);
    for (const no of ['false', 'NO', 'off', '0']) expect(ok(f('boolean'), no)).toBe(false);
    expect(ok(f('boolean', { required: true }), '')).toBe(false);
    expect(problem(f('boolean'), 'maybe')).toBe('Value must be yes or no.');
  });

  it('takes real calendar dates written YYYY-MM-DD', () => {
    expect(ok(f('date'), '2025-02-28')).toBe('2025-02-28');
    expect(ok(f('date'), '2024-02-29')).toBe('2024-02-29');
    for (const bad of ['2025-02-29', '2025-13-01', '28/02/2025', '2025-2-3', 'today', 20250101])
      expect(problem(f('date'), bad), String(bad)).toBe('Enter Value as a date (YYYY-MM-DD).');
    expect(isIsoDate('2025-00-10')).toBe(false);
  });

  it('takes only a select field’s own options, as the creator wrote them', () => {
    const select = f('select', { options: ['Morning', 'Any time'] });
    expect(ok(select, 'morning')).toBe('Morning');
    expect(ok(select, ' ANY TIME ')).toBe('Any time');
    expect(problem(select, 'Night')).toBe('Choose one of the options for Value.');
    expect(ok(f('select'), 'Anything')).toBe('Anything');
  });

  it('takes only safe web addresses', () => {
    expect(ok(f('url'), 'https://example.com/a?b=c')).toBe('https://example.com/a?b=c');
    expect(ok(f('url'), '/explore')).toBe('/explore');
    for (const bad of ['javascript:alert(1)', 'data:text/html,x', '//evil.example', 'example.com'])
      expect(problem(f('url'), bad), bad).toBe(
        'Use a web address starting with https:// for Value.',
      );
  });

  it('takes well-formed email addresses', () => {
    expect(ok(f('email'), 'ana@example.com')).toBe('ana@example.com');
    for (const bad of ['ana', 'ana@', '@example.com', 'a b@example.com', `${'a'.repeat(250)}@x.io`])
      expect(problem(f('email'), bad), bad).toContain('Enter an email address');
  });

  it('checks addresses as the schemas do (the runtime checks them without zod)', () => {
    const email = zm.email().check(zm.maxLength(254));
    const urls = [
      'https://example.com',
      ' https://example.com/a b ',
      'http://a@b.example',
      '/a',
      '/\\evil',
      `https://example.com/${'a'.repeat(2030)}`,
      `https://example.com/${'😀'.repeat(1020)}`,
      `https://example.com/${'😀'.repeat(1040)}`,
    ];
    for (const url of urls) {
      expect(coerceFieldValue(f('url'), url).ok, url).toBe(safeUrlSchema.safeParse(url).success);
    }
    const emails = ['ana@example.com', 'a.b+c@d.example.org', 'ana@localhost', 'ä@example.com'];
    for (const address of [...emails, `${'a'.repeat(243)}@example.com`]) {
      expect(coerceFieldValue(f('email'), address).ok, address).toBe(
        email.safeParse(address).success,
      );
    }
  });

  it('makes an empty value null, or an error when the field is required', () => {
    expect(ok(f('text'), '  ')).toBeNull();
    expect(ok(f('number'), null)).toBeNull();
    expect(problem(f('number', { required: true }), '')).toBe('Fill in Value.');
    expect(problem(f('text'), { toString: () => 'x' })).toBe(
      'Value can’t hold this kind of value.',
    );
  });
});

describe('checkFieldValues', () => {
  const fields = [
    f('text', { id: 'name', name: 'Name', required: true }),
    f('select', { id: 'when', name: 'When', options: ['Morning', 'Evening'], default: 'Morning' }),
    f('number', { id: 'streak', name: 'Streak', default: 0 }),
    f('select', { id: 'old', name: 'Old', options: ['A'], default: 'Gone' }),
  ];

  it('fills defaults in a complete record and drops unknown keys', () => {
    expect(checkFieldValues(fields, { name: 'Read', extra: 'x' }, { complete: true })).toEqual({
      values: { name: 'Read', when: 'Morning', streak: 0, old: null },
      errors: {},
    });
  });

  it('reports every problem by field id', () => {
    const checked = checkFieldValues(fields, { streak: 'many' }, { complete: true });
    expect(checked.errors).toEqual({
      name: 'Fill in Name.',
      streak: 'Streak must be a number, like 12 or 3.5.',
    });
  });

  it('checks only the given keys of an update', () => {
    expect(checkFieldValues(fields, { streak: '3' }, { complete: false })).toEqual({
      values: { streak: 3 },
      errors: {},
    });
    expect(checkFieldValues(fields, { name: '' }, { complete: false }).errors).toEqual({
      name: 'Fill in Name.',
    });
  });
});

describe('photo and file fields', () => {
  const hash = '0123456789abcdef'.repeat(4);
  const ref = (more: Partial<{ size: number; type: string; name: string }> = {}) =>
    formatFileReference({
      hash,
      size: 1000,
      type: 'image/jpeg',
      name: 'Fern; by Ana.jpg',
      ...more,
    });

  it('keeps a reference, its name and type read back whatever they hold', () => {
    expect(ref()).toBe(`sha256:${hash};1000;image%2Fjpeg;Fern%3B%20by%20Ana.jpg`);
    expect(parseFileReference(ref())).toEqual({
      hash,
      size: 1000,
      type: 'image/jpeg',
      name: 'Fern; by Ana.jpg',
    });
    expect(coerceFieldValue(f('image'), ref())).toEqual({ ok: true, value: ref() });
    expect(coerceFieldValue(f('file'), ref({ type: 'application/pdf' })).ok).toBe(true);
  });

  it('refuses what is not a reference, not a photo, or over the limit, in words', () => {
    expect(coerceFieldValue(f('image'), 'https://example.com/a.png')).toEqual({
      ok: false,
      message: 'Choose a photo for Value.',
    });
    expect(coerceFieldValue(f('file'), `sha256:${hash.toUpperCase()};1;;x`)).toEqual({
      ok: false,
      message: 'Choose a file for Value.',
    });
    expect(coerceFieldValue(f('image'), ref({ type: 'text/html' }))).toEqual({
      ok: false,
      message: 'That file isn’t a photo. Choose a PNG, JPEG, WebP or GIF image for Value.',
    });
    expect(coerceFieldValue(f('image'), ref({ size: 12 * 1024 * 1024 + 1 }))).toEqual({
      ok: false,
      message: 'That photo is larger than 12 MB. Choose a smaller one for Value.',
    });
    expect(coerceFieldValue(f('file'), ref({ size: 5 * 1024 * 1024 + 1 })).ok).toBe(false);
    expect(coerceFieldValue(f('file'), ref({ size: 0 })).ok).toBe(false);
    expect(coerceFieldValue(f('image', { required: true }), '')).toEqual({
      ok: false,
      message: 'Fill in Value.',
    });
  });
});

import { describe, expect, it } from 'vitest';
import {
  checkFieldValues,
  coerceFieldValue,
  dateTimeInputText,
  durationInputText,
  type Field,
  fieldSchema,
  parseDateTime,
  parseDuration,
} from '../src/index';

const f = (type: Field['type'], more: Partial<Field> = {}): Field =>
  fieldSchema.parse({ id: type, name: 'Value', type, ...more });

const ok = (field: Field, raw: unknown) => {
  const result = coerceFieldValue(field, raw);
  if (!result.ok) throw new Error(`expected ${JSON.stringify(raw)} to pass: ${result.message}`);
  return result.value;
};
const problem = (field: Field, raw: unknown) => {
  const result = coerceFieldValue(field, raw);
  return result.ok ? null : result.message;
};

describe('multi-choice values', () => {
  const tags = f('multiChoice', { name: 'Tags', options: ['Red', 'Green', 'Blue, dark'] });

  it('keeps the chosen options once each, in the field’s order, as the creator wrote them', () => {
    expect(ok(tags, ['blue, dark', ' red', 'Red'])).toEqual(['Red', 'Blue, dark']);
    expect(ok(tags, 'green; RED')).toEqual(['Red', 'Green']);
    expect(ok(tags, 'Green\nred')).toEqual(['Red', 'Green']);
    // A choice holding a comma matches whole before the text is split.
    expect(ok(tags, 'Blue, dark')).toEqual(['Blue, dark']);
  });

  it('refuses a choice that isn’t one, a list of other things, and a list in a one-value field', () => {
    expect(problem(tags, ['Red', 'Purple'])).toBe('“Purple” isn’t one of the choices for Tags.');
    expect(problem(tags, ['Red', 3])).toBe('Tags can only hold its choices.');
    expect(problem(f('text'), ['a'])).toBe('Value holds one value, not a list.');
  });

  it('is empty with nothing chosen, and required means one at least', () => {
    expect(ok(tags, [])).toBeNull();
    expect(ok(tags, ' , ')).toBeNull();
    expect(problem({ ...tags, required: true }, [])).toBe('Fill in Tags.');
  });

  it('takes any short tags when the field has no choices', () => {
    expect(ok(f('multiChoice'), 'sci-fi, classic, sci-fi')).toEqual(['sci-fi', 'classic']);
    expect(problem(f('multiChoice'), 'x'.repeat(61))).toContain('at most 60 characters');
  });
});

describe('ratings', () => {
  it('are whole stars from 1 to the scale; none is empty', () => {
    const stars = f('rating', { name: 'Stars', scale: 3 });
    expect(ok(stars, 3)).toBe(3);
    expect(ok(stars, '2')).toBe(2);
    expect(ok(stars, '★★')).toBe(2);
    expect(ok(stars, 0)).toBeNull();
    expect(ok(stars, '')).toBeNull();
    for (const bad of [4, 1.5, -1, 'lots', '★★★★'])
      expect(problem(stars, bad)).toBe('Rate Stars from 1 to 3.');
    expect(ok(f('rating'), 5)).toBe(5);
    expect(problem(f('rating'), 6)).toBe('Rate Value from 1 to 5.');
  });
});

describe('currency amounts', () => {
  const price = f('currency', { name: 'Price' });
  it('read the ways people write money, kept to cents', () => {
    expect(ok(price, '12.5')).toBe(12.5);
    expect(ok(price, '$1,234.567')).toBe(1234.57);
    expect(ok(price, '€ 3')).toBe(3);
    expect(ok(price, '-4.20 EUR')).toBe(-4.2);
    expect(ok(price, '0.1')).toBe(0.1);
    expect(ok(price, 19.999)).toBe(20);
  });
  it('refuse what isn’t an amount', () => {
    for (const bad of ['abc', '1,2,3', '12.5.1', '$$$$$5', '1e5', Infinity])
      expect(problem(price, bad)).toBe('Price must be an amount, like 12.50.');
  });
});

describe('durations', () => {
  it('are read from clock times, units and bare minutes, and kept in seconds', () => {
    expect(parseDuration('1:30')).toBe(5400);
    expect(parseDuration('0:45:10')).toBe(2710);
    expect(parseDuration('90')).toBe(5400);
    expect(parseDuration('1.5')).toBe(90);
    expect(parseDuration('1h 30m')).toBe(5400);
    expect(parseDuration('2 hours and 5 minutes')).toBe(7500);
    expect(parseDuration('45 min')).toBe(2700);
    expect(parseDuration('20s')).toBe(20);
    expect(parseDuration('1 day')).toBe(86_400);
    for (const bad of ['soon', '1:75', '3 fortnights', '1h x', ''])
      expect(parseDuration(bad), bad).toBeNull();
  });
  it('take a stored number as seconds, and refuse negative or huge ones', () => {
    const time = f('duration', { name: 'Time' });
    expect(ok(time, 600)).toBe(600);
    expect(ok(time, '10 min')).toBe(600);
    expect(problem(time, -5)).toBe('Enter Time as a time like 1:30 or 45 min.');
    expect(problem(time, 2e9)).toBe('Enter Time as a time like 1:30 or 45 min.');
    expect(problem(time, 'later')).toBe('Enter Time as a time like 1:30 or 45 min.');
  });
  it('round-trip through the text an input shows', () => {
    for (const seconds of [0, 59, 60, 5400, 2710, 86_399, 360_000])
      expect(parseDuration(durationInputText(seconds))).toBe(seconds);
  });
});

describe('dates with times', () => {
  it('keep an instant in UTC, from text with a zone or from this device’s local time', () => {
    expect(parseDateTime('2026-03-29T08:30:00Z')).toBe('2026-03-29T08:30:00.000Z');
    expect(parseDateTime('2026-03-29T08:30+02:00')).toBe('2026-03-29T06:30:00.000Z');
    // Without a zone, the moment is the one this device's clock shows then.
    expect(parseDateTime('2026-03-29 08:30')).toBe(new Date(2026, 2, 29, 8, 30).toISOString());
    expect(parseDateTime('2026-03-29T08:30')).toBe(new Date(2026, 2, 29, 8, 30).toISOString());
    expect(parseDateTime(Date.UTC(2026, 0, 1))).toBe('2026-01-01T00:00:00.000Z');
    for (const bad of ['2026-02-30T10:00', '2026-03-29T25:00', 'tomorrow', '0999-01-01T00:00Z'])
      expect(parseDateTime(bad), bad).toBeNull();
  });
  it('round-trip through a datetime-local input in this device’s zone', () => {
    // Away from the hour a clock goes back, which local time can't tell apart from the one before.
    for (const iso of [
      '2026-03-29T00:30:00.000Z',
      '2026-10-26T01:15:00.000Z',
      '2026-07-01T12:00:00.000Z',
    ])
      expect(parseDateTime(dateTimeInputText(iso))).toBe(iso);
    expect(dateTimeInputText('not a date')).toBe('');
  });
  it('say what to type when the value is wrong', () => {
    expect(problem(f('dateTime', { name: 'Starts' }), 'next week')).toBe(
      'Enter Starts as a date and time.',
    );
  });
});

describe('formula fields', () => {
  it('are never stored: given values are dropped, and a form never asks for them', () => {
    const fields = [
      f('text', { id: 'title', name: 'Title' }),
      f('formula', { id: 'calc', formula: '1 + 1' }),
    ];
    expect(checkFieldValues(fields, { title: 'A', calc: 99 }, { complete: true })).toEqual({
      values: { title: 'A' },
      errors: {},
    });
  });
});

import { describe, expect, it } from 'vitest';
import { atMoment, dateAndTime } from './format-time';

describe('dateAndTime', () => {
  it('writes a moment with its date and time, from milliseconds or an ISO string', () => {
    const at = Date.UTC(2026, 10, 28, 1, 38);
    const expected = new Intl.DateTimeFormat('en', {
      dateStyle: 'medium',
      timeStyle: 'short',
    }).format(new Date(at));
    expect(dateAndTime(at)).toBe(expected);
    expect(dateAndTime(new Date(at).toISOString())).toBe(expected);
    expect(dateAndTime(at)).toMatch(/2026/);
  });
});

describe('atMoment', () => {
  it('says a moment as a sentence does: the time today, with its date on another day', () => {
    const now = new Date(2026, 10, 28, 15, 0).getTime();
    expect(atMoment(new Date(2026, 10, 28, 2, 31).getTime(), now)).toBe('at 02:31');
    expect(atMoment(new Date(2026, 10, 2, 14, 5).getTime(), now)).toMatch(
      /^on 2 Nov 2026 at 14:05$/,
    );
  });
});

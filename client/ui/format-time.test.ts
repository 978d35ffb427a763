import { describe, expect, it } from 'vitest';
import { dateAndTime } from './format-time';

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

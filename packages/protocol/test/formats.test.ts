import { describe, expect, it } from 'vitest';
import { regexes } from 'zod/mini';
import { EMAIL_PATTERN, ISO_DATE_TIME_PATTERN } from '../src/formats';

describe('formats', () => {
  it('are zod’s own patterns', () => {
    expect(EMAIL_PATTERN.source).toBe(regexes.email.source);
    expect(ISO_DATE_TIME_PATTERN.source).toBe(
      regexes.datetime({ precision: null, offset: false, local: false }).source,
    );
  });
});

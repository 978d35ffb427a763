import { describe, expect, it } from 'vitest';
import { linkFailureWords } from './link-failure';

describe('what an emailed link’s page says when its token is refused', () => {
  it('calls a token refused by validation, or no token at all, not complete — no “fields”', () => {
    const incomplete = {
      title: 'This link is not complete',
      body: 'Open the link from the email again, or ask for a new one.',
    };
    expect(linkFailureWords('validation_failed', 'Some fields need another look.')).toEqual(
      incomplete,
    );
    // The page's own answer for an address with no token.
    expect(linkFailureWords('token_invalid', '')).toEqual(incomplete);
  });

  it('keeps the server’s words for a used, expired or unknown link', () => {
    expect(linkFailureWords('token_used', 'This link was already used.').title).toBe(
      'This link was already used',
    );
    expect(linkFailureWords('token_expired', 'It expired.')).toEqual({
      title: 'This link has expired',
      body: 'It expired.',
    });
    expect(linkFailureWords('token_invalid', 'Unknown link.')).toEqual({
      title: 'This link doesn’t work',
      body: 'Unknown link.',
    });
  });
});

import { describe, expect, it } from 'vitest';
import * as zm from 'zod/mini';
import { PROFILE_LINK_URL_MESSAGE, profileLinkSchema } from '../src/profile-parts';

describe('a profile link’s address', () => {
  it('tells what to type when it is not a full web address', () => {
    for (const url of ['readinglog.example/ada', 'ftp://example.org', 'javascript:alert(1)', '']) {
      const result = zm.safeParse(profileLinkSchema, { label: 'Reading log', url });
      expect(result.success, url).toBe(false);
      expect(result.error?.issues.map((issue) => issue.message)).toEqual([
        PROFILE_LINK_URL_MESSAGE,
      ]);
    }
    expect(PROFILE_LINK_URL_MESSAGE).toBe(
      'Use a full web address starting with https://, like https://example.org.',
    );
  });

  it('takes http and https addresses', () => {
    for (const url of ['https://readinglog.example/ada', 'http://example.org']) {
      expect(zm.safeParse(profileLinkSchema, { label: 'Log', url }).success, url).toBe(true);
    }
  });
});

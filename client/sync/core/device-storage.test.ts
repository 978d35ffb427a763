import { describe, expect, it } from 'vitest';
import { isSafariBrowserTab } from './device-storage';

const SAFARI_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const CHROME_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1';
const CHROME_ANDROID =
  'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
const CHROME_DESKTOP =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

describe('the seven-day rule (isSafariBrowserTab)', () => {
  it('applies to Safari tabs on the Mac and the iPhone', () => {
    expect(isSafariBrowserTab(SAFARI_MAC, false)).toBe(true);
    expect(isSafariBrowserTab(SAFARI_IPHONE, false)).toBe(true);
  });

  it('does not apply to an app on the Home Screen or Dock', () => {
    expect(isSafariBrowserTab(SAFARI_IPHONE, true)).toBe(false);
    expect(isSafariBrowserTab(SAFARI_MAC, true)).toBe(false);
  });

  it('does not apply to other browsers, whose user agents also say Safari', () => {
    for (const agent of [CHROME_IPHONE, CHROME_ANDROID, CHROME_DESKTOP]) {
      expect(isSafariBrowserTab(agent, false)).toBe(false);
    }
  });
});

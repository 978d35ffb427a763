import { describe, expect, it } from 'vitest';
import { clientIp, describeDevice, normalizeIp } from '../../src/accounts/client-info';
import { addressKey } from '../../src/accounts/rate-limits';

describe('describeDevice', () => {
  it.each([
    ['Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0', 'Firefox on Linux'],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      'Safari on iOS',
    ],
    ['node', 'Unknown device'],
    ['', 'Unknown device'],
    [null, 'Unknown device'],
  ])('%s → %s', (ua, expected) => {
    expect(describeDevice(ua)).toBe(expected);
  });
});

describe('clientIp', () => {
  const headers = new Headers({ 'x-forwarded-for': '203.0.113.9, 10.0.0.2' });
  it('uses the socket unless a proxy is trusted', () => {
    expect(clientIp(headers, '::ffff:127.0.0.1', false)).toBe('127.0.0.1');
    expect(clientIp(headers, '127.0.0.1', true)).toBe('10.0.0.2');
    expect(clientIp(new Headers(), '127.0.0.1', true)).toBe('127.0.0.1');
  });
});

describe('an address as limits count it', () => {
  it.each([
    ['203.0.113.9', '203.0.113.9'],
    ['203.0.113.9:51234', '203.0.113.9'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    ['[2001:db8::1]:443', '2001:db8::1'],
    ['2001:DB8::1', '2001:db8::1'],
    ['not an address', null],
    ['', null],
    ['203.0.113.9:80:80', null],
  ])('%j → %j', (given, expected) => {
    expect(normalizeIp(given)).toBe(expected);
  });

  it('counts IPv4 written as IPv6 as IPv4, not as one /64 for everyone', () => {
    expect(addressKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('::ffff:198.51.100.1')).not.toBe(addressKey('::ffff:203.0.113.9'));
    expect(addressKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
  });
});

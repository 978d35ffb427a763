import { describe, expect, it } from 'vitest';
import { safeHref } from '../src/index';

describe('safeHref', () => {
  it.each([
    'https://example.com',
    'http://example.com/a?b=c#d',
    '/apps/1',
    'page',
    './page#x',
    '#top',
    '?q=1',
  ])('keeps %s', (url) => {
    expect(safeHref(` ${url} `)).toBe(url);
  });

  it.each([
    'javascript:alert(1)',
    ' JAVASCRIPT:alert(1)',
    'java\nscript:alert(1)',
    'java\tscript:alert(1)',
    '\u0001javascript:alert(1)',
    'data:image/png;base64,AAAA',
    'vbscript:x',
    'mailto:a@b.c',
    '//evil.example/x',
    '/\\evil.example',
    'https://good.example@evil.example/',
    'https://',
    '',
  ])('refuses %j', (url) => {
    expect(safeHref(url)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { isLocalPath, PUSH_BODY_MAX, PUSH_TITLE_MAX, readPushMessage } from '../src';

const APP = 'abcdefghijklmnopqrstuvwxyz';
const message = { title: 'Water the plants', body: 'It is 08:00.', path: '/apps/x/pwa', tag: 't1' };

describe('readPushMessage', () => {
  it('reads a message and leaves unknown keys out', () => {
    expect(readPushMessage({ ...message, appId: APP, extra: '<b>' })).toEqual({
      ...message,
      appId: APP,
    });
    expect(readPushMessage({ ...message, body: '' })).toEqual({ ...message, body: '' });
  });

  it.each([
    ['not an object', 'hello'],
    ['an array', [message]],
    ['no title', { ...message, title: '' }],
    ['a blank title', { ...message, title: '   ' }],
    ['a title too long', { ...message, title: 'x'.repeat(PUSH_TITLE_MAX + 1) }],
    ['a body too long', { ...message, body: 'x'.repeat(PUSH_BODY_MAX + 1) }],
    ['a body that is not text', { ...message, body: 3 }],
    ['a whole URL', { ...message, path: 'https://evil.example/' }],
    ['a javascript: URL', { ...message, path: 'javascript:alert(1)' }],
    ['another origin without a scheme', { ...message, path: '//evil.example/' }],
    ['no tag', { ...message, tag: '' }],
    ['an app id that is not one', { ...message, appId: '../../x' }],
  ])('refuses %s', (_, value) => {
    expect(readPushMessage(value)).toBeNull();
  });
});

describe('isLocalPath', () => {
  it('takes paths on this origin only', () => {
    expect(isLocalPath('/')).toBe(true);
    expect(isLocalPath('/apps/abc/pwa?record=1#x')).toBe(true);
    expect(isLocalPath('/\\evil.example')).toBe(false);
    expect(isLocalPath('/a\nb')).toBe(false);
    expect(isLocalPath('relative')).toBe(false);
    expect(isLocalPath(`/${'a'.repeat(600)}`)).toBe(false);
  });
});

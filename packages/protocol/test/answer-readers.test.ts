import { describe, expect, it } from 'vitest';
import {
  accountSchema,
  anyAnswer,
  answerParser,
  apiErrorSchema,
  clientConfigSchema,
  createId,
  errorReportingConfigSchema,
  libraryEntrySchema,
  parseLibraryEntry,
  publishedAppSchema,
  readAccount,
  readApiError,
  readClientConfig,
  readErrorReportingConfig,
  readPublishedApp,
  readSessionResponse,
  sessionResponseSchema,
} from '../src/index';

/*
 * The installed app reads its first screen's answers by hand (answer-readers.ts); the zod schemas
 * stay the protocol's definition. Each reader must accept what its schema accepts, refuse what it
 * refuses, and give the same value.
 */

interface Schema {
  safeParse(value: unknown): { success: boolean; data?: unknown };
}

/** The reader and the schema agree on `value`: both refuse it, or both read the same. */
function agree(read: (value: unknown) => unknown, schema: Schema, value: unknown) {
  const parsed = schema.safeParse(value);
  expect(read(value), JSON.stringify(value)).toEqual(parsed.success ? parsed.data : null);
}

/** Every variant of `valid`: as is, each key removed, each key set to each of the odd values. */
function variants(valid: Record<string, unknown>): unknown[] {
  const odd = [null, undefined, '', 'x', -1, 0, 1.5, 3, true, [], {}, ['a']];
  const out: unknown[] = [valid, { ...valid, extra: 'kept out' }, null, [], 'text', 1];
  for (const key of Object.keys(valid)) {
    const { [key]: _removed, ...rest } = valid;
    out.push(rest);
    for (const value of odd) out.push({ ...valid, [key]: value });
  }
  return out;
}

const APP = createId();
const author = {
  username: 'ada',
  displayName: 'Ada',
  avatar: { kind: 'emoji', emoji: '🦉', color: '#123abc' },
};
const card = {
  id: APP,
  title: 'Habits',
  description: 'Daily habits',
  icon: { kind: 'emoji', emoji: '🌱', background: '#1a7f5a' },
  tags: ['health'],
  author,
  version: 3,
  publishedAt: 1_700_000_000_000,
  opens: 10,
  installs: 2,
};
const publishedApp = {
  ...card,
  visibility: 'public',
  published: true,
  archived: false,
  role: null,
  remixedFrom: { appId: createId(), version: 1, title: 'Original', author },
  remixes: [{ id: createId(), title: 'Remix', author: { ...author, avatar: null } }],
  remixCount: 1,
  definition: { meta: { title: 'Habits' } },
};
const account = {
  id: 'u1',
  username: 'ada',
  email: 'ada@example.org',
  emailVerified: true,
  pendingEmail: null,
  displayName: 'Ada',
  bio: '',
  avatar: { kind: 'image', url: '/avatars/ada.png' },
  links: [{ label: 'Site', url: 'https://ada.example' }],
  pinnedAppIds: [APP],
  createdAt: '2026-11-30T02:14:52.123Z',
};

describe('the installed app’s answer readers', () => {
  it('read a published app as publishedAppSchema does', () => {
    for (const value of variants(publishedApp)) agree(readPublishedApp, publishedAppSchema, value);
    for (const value of variants(author)) {
      agree(readPublishedApp, publishedAppSchema, { ...publishedApp, author: value });
    }
    for (const value of variants(card.icon)) {
      agree(readPublishedApp, publishedAppSchema, { ...publishedApp, icon: value });
    }
    for (const icon of [
      { kind: 'image', url: '/icons/a.png' },
      { kind: 'image', url: '//evil.example/a.png' },
      { kind: 'emoji', emoji: '🌱'.repeat(9), background: '#1a7f5a' },
      { kind: 'emoji', emoji: '🌱', background: 'green' },
      { kind: 'other' },
    ]) {
      agree(readPublishedApp, publishedAppSchema, { ...publishedApp, icon });
    }
    for (const remixedFrom of variants(publishedApp.remixedFrom)) {
      agree(readPublishedApp, publishedAppSchema, { ...publishedApp, remixedFrom });
    }
    for (const version of [null, 0, 1, 2.5]) {
      agree(readPublishedApp, publishedAppSchema, { ...publishedApp, version });
    }
    for (const role of ['owner', 'editor', 'viewer', 'admin']) {
      agree(readPublishedApp, publishedAppSchema, { ...publishedApp, role });
    }
    agree(readPublishedApp, publishedAppSchema, { ...publishedApp, id: 'not an id' });
    const { definition: _definition, ...withoutDefinition } = publishedApp;
    agree(readPublishedApp, publishedAppSchema, withoutDefinition);
  });

  it('read an account and the session as their schemas do', () => {
    for (const value of variants(account)) agree(readAccount, accountSchema, value);
    for (const links of [
      [{ label: 'Site', url: 'http://ada.example/page' }],
      [{ label: 'Site', url: 'javascript:alert(1)' }],
      [{ label: 'Site', url: 'ada.example' }],
      [{ label: 'x'.repeat(41), url: 'https://ada.example' }],
    ]) {
      agree(readAccount, accountSchema, { ...account, links });
    }
    for (const createdAt of ['2026-11-30T02:14:52Z', '2026-11-30T02:14Z', '2026-02-30T00:00:00Z']) {
      agree(readAccount, accountSchema, { ...account, createdAt });
    }
    for (const value of [{ account }, { account: null }, {}, { account: {} }, null]) {
      agree(readSessionResponse, sessionResponseSchema, value);
    }
  });

  it('read a library entry as libraryEntrySchema does', () => {
    const entry = {
      appId: APP,
      title: 'Habits',
      icon: null,
      author: 'ada',
      version: null,
      openedAt: 1_000,
      installedAt: 2_000,
      savedAt: 3_000,
      removedAt: 4_000,
    };
    for (const value of variants(entry)) agree(parseLibraryEntry, libraryEntrySchema, value);
    agree(parseLibraryEntry, libraryEntrySchema, { ...entry, title: 'x'.repeat(201) });
    agree(parseLibraryEntry, libraryEntrySchema, { ...entry, author: 'x'.repeat(61) });
  });

  it('read an error answer as apiErrorSchema does', () => {
    const error = {
      code: 'publish_invalid',
      message: 'Fix these first.',
      fields: { 'meta.title': 'Add a title.' },
      digest: 'abc',
      retryAfter: 30,
      problems: [{ path: 'meta.title', message: 'Add a title.', entity: null }],
      appId: APP,
    };
    for (const value of variants(error)) agree(readApiError, apiErrorSchema, { error: value });
    for (const problems of [
      [{ path: 'x', message: 'y', entity: { table: 'screens', id: 's1' } }],
      [{ path: 'x', message: 'y', entity: { table: 'screens' } }],
      [{ path: 'x', message: 'y' }],
    ]) {
      agree(readApiError, apiErrorSchema, { error: { ...error, problems } });
    }
    agree(readApiError, apiErrorSchema, { error: { ...error, fields: { a: 1 } } });
    agree(readApiError, apiErrorSchema, { error: { ...error, code: 'teapot' } });
    agree(readApiError, apiErrorSchema, {});
  });

  it('read the client’s settings as their schemas do', () => {
    const reporting = {
      dsn: 'https://key@example.org/1',
      tunnel: '/monitoring?o=1&p=2',
      release: 'r1',
      environment: 'production',
    };
    for (const value of variants(reporting)) {
      agree(readErrorReportingConfig, errorReportingConfigSchema, value);
      agree(readClientConfig, clientConfigSchema, { errorReporting: value });
    }
    agree(readClientConfig, clientConfigSchema, { errorReporting: null });
    agree(readClientConfig, clientConfigSchema, {});
  });

  it('throw from parse what does not fit, as a schema’s parse does; anyAnswer takes anything', () => {
    const parser = answerParser(readSessionResponse);
    expect(parser.parse({ account: null })).toEqual({ account: null });
    expect(() => parser.parse({ account: 'ada' })).toThrow();
    expect(anyAnswer.parse('whatever')).toBe('whatever');
  });
});

import { APP_ROLES, type AppRole, VISIBILITIES, type Visibility } from './app-access';
import type { AppIcon } from './app-basics';
import type { ClientConfig, ErrorReportingConfig } from './client-config';
import { ERROR_CODES, type ErrorCode } from './error-codes';
import type { ApiErrorBody } from './errors';
import { ISO_DATE_TIME_PATTERN } from './formats';
import { ID_PATTERN } from './ids';
import type { LibraryEntry } from './library-entry';
import type { Avatar } from './profile-parts';
import type { AppAuthor, AppLineage, PublishedApp, PublishProblem } from './published-app';
import type { Account, SessionResponse } from './session';

/*
 * The answers the installed app's first screen reads (the published app, who is signed in, the
 * library's entries, an error answer, the error-reporting settings), read by hand rather than by
 * their zod schemas: zod's core is one shared module of ~10 KB gzip, and the installed app's first
 * visit is budgeted at 110 KB (docs/performance.md). Each reader accepts exactly what its schema
 * accepts and gives what it gives (unknown keys left out): test/answer-readers.test.ts holds
 * them to the schemas, which stay the protocol's definition (the server and the site use them).
 * The formats zod knows best (an ISO time) are its own patterns (formats.ts).
 */

/** Something that reads an answer: a hand-written reader here, or a zod schema. */
export interface AnswerParser<T> {
  /** The answer as read; throws if it does not fit. */
  parse(data: unknown): T;
}

/** A reader (null: does not fit) as request helpers take it. */
export function answerParser<T>(read: (value: unknown) => T | null): AnswerParser<T> {
  return {
    parse(data) {
      const value = read(data);
      if (value === null) throw new TypeError('The answer does not have the expected shape.');
      return value;
    },
  };
}

/** Any answer at all, unread (a request whose answer nothing uses). */
export const anyAnswer: AnswerParser<unknown> = { parse: (data) => data };

/** Thrown inside a reader when a value does not fit; its caller answers null. */
const misfit = new Error('misfit');

function fail(): never {
  throw misfit;
}

/** `read` over `value`, null if any part did not fit. */
function readOrNull<T>(read: (value: unknown) => T, value: unknown): T | null {
  try {
    return read(value);
  } catch (error) {
    if (error === misfit) return null;
    throw error;
  }
}

type Fields = Record<string, unknown>;

const object = (value: unknown): Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : fail();

/** zod measures a string's length in code points (an emoji is one, not two UTF-16 units). */
const codePoints = (text: string) => [...text].length;

function string(value: unknown, min = 0, max = Infinity): string {
  if (typeof value !== 'string') return fail();
  if (min === 0 && max === Infinity) return value;
  const length = codePoints(value);
  return length >= min && length <= max ? value : fail();
}

const matching = (value: unknown, pattern: RegExp, max = Infinity): string =>
  pattern.test(string(value, 0, max)) ? (value as string) : fail();

const boolean = (value: unknown): boolean => (typeof value === 'boolean' ? value : fail());

const number = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : fail();

const int = (value: unknown, min: number): number =>
  Number.isSafeInteger(value) && (value as number) >= min ? (value as number) : fail();

const oneOf = <T extends string>(value: unknown, options: readonly T[]): T =>
  options.includes(value as T) ? (value as T) : fail();

const nullable = <T>(value: unknown, read: (value: unknown) => T): T | null =>
  value === null ? null : read(value);

const array = <T>(value: unknown, read: (value: unknown) => T): T[] =>
  Array.isArray(value) ? value.map((item) => read(item)) : fail();

/** Optional keys are left out when absent (or undefined), as zod leaves them. */
function optional<T>(into: Fields, key: string, value: unknown, read: (value: unknown) => T) {
  if (value !== undefined) into[key] = read(value);
}

const SAME_ORIGIN_PATH = /^\/(?![/\\])/;
const HEX_COLOR = /^#[0-9a-f]{6}$/i;

const sameOriginPath = (value: unknown) => matching(value, SAME_ORIGIN_PATH, 2048);

/** An emoji on a colour (`colorKey`: an icon's `background`, an avatar's `color`), or an image. */
function pictureOf(value: unknown, colorKey: 'background' | 'color') {
  const fields = object(value);
  if (fields.kind === 'image') return { kind: 'image' as const, url: sameOriginPath(fields.url) };
  if (fields.kind !== 'emoji') fail();
  return {
    kind: 'emoji' as const,
    emoji: string(fields.emoji, 1, 16),
    [colorKey]: matching(fields[colorKey], HEX_COLOR),
  };
}

const icon = (value: unknown) => pictureOf(value, 'background') as AppIcon;
const avatar = (value: unknown) => pictureOf(value, 'color') as Avatar;
const appId = (value: unknown) => matching(value, ID_PATTERN);

function author(value: unknown): AppAuthor {
  const fields = object(value);
  return {
    username: string(fields.username),
    displayName: string(fields.displayName),
    avatar: nullable(fields.avatar, avatar),
  };
}

function lineage(value: unknown): AppLineage {
  const fields = object(value);
  return {
    appId: appId(fields.appId),
    version: int(fields.version, 1),
    title: string(fields.title),
    author: author(fields.author),
  };
}

function publishedApp(value: unknown): PublishedApp {
  const fields = object(value);
  const app: Fields = {
    id: appId(fields.id),
    title: string(fields.title),
    description: string(fields.description),
    icon: nullable(fields.icon, icon),
    tags: array(fields.tags, (tag) => string(tag)),
    author: author(fields.author),
    version: nullable(fields.version, (version) => int(version, 1)),
    publishedAt: nullable(fields.publishedAt, number),
    opens: int(fields.opens, 0),
    installs: int(fields.installs, 0),
    visibility: oneOf<Visibility>(fields.visibility, VISIBILITIES),
    published: boolean(fields.published),
    archived: boolean(fields.archived),
    role: nullable(fields.role, (role) => oneOf<AppRole>(role, APP_ROLES)),
    remixedFrom: nullable(fields.remixedFrom, lineage),
    remixes: array(fields.remixes, (remix) => {
      const card = object(remix);
      return { id: appId(card.id), title: string(card.title), author: author(card.author) };
    }),
  };
  optional(app, 'remixCount', fields.remixCount, number);
  // Any value, but there must be one: zod refuses an answer without the key.
  if (!('definition' in fields)) fail();
  app.definition = fields.definition;
  return app as PublishedApp;
}

/** `GET /api/published/{id}` (`publishedAppSchema`), or null if it does not fit. */
export const readPublishedApp = (value: unknown): PublishedApp | null =>
  readOrNull(publishedApp, value);

const PROFILE_LINK_PROTOCOL = /^https?$/;
/** The platform's URL parser (browsers' and Node's alike); this package compiles without the DOM. */
const { URL: UrlParser } = globalThis as unknown as {
  URL: new (text: string) => { protocol: string };
};

/** `zm.url({ protocol: /^https?$/ })`: what the URL parser reads, with an http(s) scheme. */
function profileLinkUrl(value: unknown): string {
  const text = string(value);
  let url: { protocol: string };
  try {
    url = new UrlParser(text);
  } catch {
    return fail();
  }
  return PROFILE_LINK_PROTOCOL.test(url.protocol.slice(0, -1)) ? text : fail();
}

function account(value: unknown): Account {
  const fields = object(value);
  return {
    id: string(fields.id),
    username: string(fields.username),
    email: string(fields.email),
    emailVerified: boolean(fields.emailVerified),
    pendingEmail: nullable(fields.pendingEmail, string),
    displayName: string(fields.displayName),
    bio: string(fields.bio),
    avatar: avatar(fields.avatar),
    links: array(fields.links, (link) => {
      const linkFields = object(link);
      return { label: string(linkFields.label, 0, 40), url: profileLinkUrl(linkFields.url) };
    }),
    pinnedAppIds:
      fields.pinnedAppIds === undefined ? [] : array(fields.pinnedAppIds, (id) => string(id)),
    createdAt: matching(fields.createdAt, ISO_DATE_TIME_PATTERN),
  };
}

/** An account as `accountSchema` reads it (this device's copy), or null. */
export const readAccount = (value: unknown): Account | null => readOrNull(account, value);

/** `GET /api/auth/session` (`sessionResponseSchema`), or null. */
export const readSessionResponse = (value: unknown): SessionResponse | null =>
  readOrNull((answer) => ({ account: nullable(object(answer).account, account) }), value);

function libraryEntry(value: unknown): LibraryEntry {
  const fields = object(value);
  const entry: Fields = {
    appId: appId(fields.appId),
    title: string(fields.title, 0, 200),
    icon: nullable(fields.icon, icon),
    author: string(fields.author, 0, 60),
    version: nullable(fields.version, (version) => int(version, 1)),
    openedAt: int(fields.openedAt, 0),
  };
  const time = (time: unknown) => int(time, 0);
  optional(entry, 'installedAt', fields.installedAt, time);
  optional(entry, 'savedAt', fields.savedAt, time);
  optional(entry, 'removedAt', fields.removedAt, time);
  return entry as LibraryEntry;
}

/**
 * A library entry as stored (a document or an older device may hold anything), as
 * `libraryEntrySchema` reads it: null if unusable.
 */
export const parseLibraryEntry = (value: unknown): LibraryEntry | null =>
  readOrNull(libraryEntry, value);

function publishProblem(value: unknown): PublishProblem {
  const fields = object(value);
  return {
    path: string(fields.path),
    message: string(fields.message),
    entity: nullable(fields.entity, (entity) => {
      const entityFields = object(entity);
      return { table: string(entityFields.table), id: string(entityFields.id) };
    }),
  };
}

function apiError(value: unknown): ApiErrorBody {
  const fields = object(object(value).error);
  const error: Fields = {
    code: oneOf<ErrorCode>(fields.code, ERROR_CODES),
    message: string(fields.message),
  };
  optional(error, 'fields', fields.fields, (record) => {
    const read: Record<string, string> = {};
    for (const [key, text] of Object.entries(object(record))) read[key] = string(text);
    return read;
  });
  optional(error, 'digest', fields.digest, string);
  optional(error, 'retryAfter', fields.retryAfter, (seconds) => int(seconds, 0));
  optional(error, 'problems', fields.problems, (problems) => array(problems, publishProblem));
  optional(error, 'appId', fields.appId, string);
  return { error: error as ApiErrorBody['error'] };
}

/** An error answer's body (`apiErrorSchema`), or null. */
export const readApiError = (value: unknown): ApiErrorBody | null => readOrNull(apiError, value);

function errorReportingConfig(value: unknown): ErrorReportingConfig {
  const fields = object(value);
  return {
    dsn: string(fields.dsn),
    tunnel: matching(fields.tunnel, /^\/monitoring\?/),
    release: string(fields.release),
    environment: string(fields.environment),
  };
}

/** Error reporting's settings (`errorReportingConfigSchema`), or null. */
export const readErrorReportingConfig = (value: unknown): ErrorReportingConfig | null =>
  readOrNull(errorReportingConfig, value);

/** `GET /api/client-config` (`clientConfigSchema`), or null. */
export const readClientConfig = (value: unknown): ClientConfig | null =>
  readOrNull(
    (answer) => ({ errorReporting: nullable(object(answer).errorReporting, errorReportingConfig) }),
    value,
  );

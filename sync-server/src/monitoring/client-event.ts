import Bowser from 'bowser';
import { isJsonObject, mainExceptionOf } from '@pipit/protocol';
import type { ErrorEventRecord } from '../storage/types';
import type { JsonObject } from './envelope';
import { eventIdOf, storedEventJson, textField } from './event-json';
import { type ErrorIdentity, fingerprintOf, frameLabel, topInAppFrame } from './fingerprint';

const TYPE_MAX_CHARS = 200;
const MESSAGE_MAX_CHARS = 2_000;
const FIELD_MAX_CHARS = 500;

/** A Sentry event's message: a string, or `{ formatted | message }` (and `logentry` alike). */
function messageOf(event: JsonObject): string | undefined {
  for (const field of [event.message, event.logentry]) {
    if (typeof field === 'string' && field) return field.slice(0, MESSAGE_MAX_CHARS);
    if (isJsonObject(field)) {
      const text =
        textField(field.formatted, MESSAGE_MAX_CHARS) ??
        textField(field.message, MESSAGE_MAX_CHARS);
      if (text) return text;
    }
  }
  return undefined;
}

/**
 * Type, message and top frame of a browser report: its main exception — the last of
 * `exception.values`, the one that was thrown last — or, for a captured message, the message.
 */
function identityOf(event: JsonObject): ErrorIdentity {
  const main = mainExceptionOf(event);
  if (main) {
    const frames = isJsonObject(main.stacktrace) ? main.stacktrace.frames : undefined;
    const top = Array.isArray(frames) ? topInAppFrame(frames.filter(isJsonObject)) : undefined;
    return {
      type: textField(main.type, TYPE_MAX_CHARS) ?? 'Error',
      message: textField(main.value, MESSAGE_MAX_CHARS) ?? messageOf(event) ?? '',
      topFrame: top ? frameLabel(top) : null,
    };
  }
  return {
    type: 'Message',
    message: messageOf(event) ?? '',
    topFrame: null,
  };
}

/** "Chrome 126" from the browser context the SDK may send, or from the User-Agent it reported. */
function browserOf(event: JsonObject): string | null {
  const context = isJsonObject(event.contexts) ? event.contexts.browser : undefined;
  if (isJsonObject(context) && typeof context.name === 'string') {
    const version = typeof context.version === 'string' ? context.version.split('.')[0] : '';
    return `${context.name} ${version ?? ''}`.trim().slice(0, 100);
  }
  const headers = isJsonObject(event.request) ? event.request.headers : undefined;
  const agent = isJsonObject(headers)
    ? Object.entries(headers).find(([name]) => name.toLowerCase() === 'user-agent')?.[1]
    : undefined;
  if (typeof agent !== 'string' || !agent) return null;
  const { name, version } = Bowser.parse(agent).browser;
  if (!name) return null;
  return `${name} ${version?.split('.')[0] ?? ''}`.trim();
}

function pathOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).pathname;
  } catch {
    return url.startsWith('/') ? url : undefined;
  }
}

/**
 * A browser's report (already redacted) as a stored occurrence. The route is what the client tagged
 * (`tags.route`), else the transaction name, else the page's path.
 */
export function clientEventRecord(
  event: JsonObject,
  receivedAt: number,
  envelopeEventId?: unknown,
): ErrorEventRecord {
  const identity = identityOf(event);
  const tags = isJsonObject(event.tags) ? event.tags : {};
  const url = isJsonObject(event.request) ? textField(event.request.url, 2_000) : undefined;
  const route =
    textField(tags.route, FIELD_MAX_CHARS) ??
    textField(event.transaction, FIELD_MAX_CHARS) ??
    pathOf(url)?.slice(0, FIELD_MAX_CHARS);
  return {
    id: eventIdOf(event.event_id, envelopeEventId),
    fingerprint: fingerprintOf(identity),
    source: 'client',
    ...identity,
    receivedAt,
    digest: null,
    route: route ?? null,
    url: url ?? null,
    browser: browserOf(event),
    release: textField(event.release, FIELD_MAX_CHARS) ?? null,
    environment: textField(event.environment, 100) ?? null,
    level: textField(event.level, 20) ?? 'error',
    eventJson: storedEventJson(event),
  };
}

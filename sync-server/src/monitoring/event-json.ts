import { randomBytes } from 'node:crypto';
import { breadcrumbsOf, isJsonObject, mainExceptionOf } from '@pipit/protocol';
import type { JsonObject } from './envelope';

/**
 * A stored report's JSON is at most this big, whatever was sent: a browser may post 1 MiB, and all
 * the inbox shows of it is a stack, some breadcrumbs and tags (client/features/admin).
 */
export const STORED_EVENT_MAX_BYTES = 16 * 1024;

/** How much of each part is kept: about what the inbox shows, and never more than it reads. */
const KEPT = {
  frames: 50,
  breadcrumbs: 30,
  crumbData: 8,
  tags: 20,
  /** The text of a server error's stack, as Node printed it. */
  stackChars: 8_000,
  typeChars: 200,
  valueChars: 2_000,
  fileChars: 300,
  functionChars: 200,
  crumbMessageChars: 500,
  keyChars: 50,
  /** A tag or breadcrumb-data value, as the inbox prints it. */
  valueTextChars: 200,
  wordChars: 100,
} as const;

/** A string field, cut to a length a column and a list can show; undefined when absent or empty. */
export function textField(value: unknown, maxChars: number): string | undefined {
  return typeof value === 'string' && value !== '' ? value.slice(0, maxChars) : undefined;
}

/** The report's event id (32 hex digits, as the SDK makes them), or a new one. */
export function eventIdOf(...candidates: unknown[]): string {
  for (const candidate of candidates) {
    if (typeof candidate !== 'string') continue;
    const id = candidate.replace(/-/g, '').toLowerCase();
    if (/^[0-9a-f]{32}$/.test(id)) return id;
  }
  return randomBytes(16).toString('hex');
}

const finite = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** A value as the inbox prints it (`String(value)`, JSON for objects), cut short. */
function shownValue(value: unknown): string | number | boolean | null {
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.slice(0, KEPT.valueTextChars);
}

/** The first `max` entries of an object, keys and values cut short. */
function shownEntries(value: unknown, max: number): JsonObject | undefined {
  if (!isJsonObject(value)) return undefined;
  const entries = Object.entries(value).slice(0, max);
  return Object.fromEntries(
    entries.map(([key, item]) => [key.slice(0, KEPT.keyChars), shownValue(item)]),
  );
}

/** A frame as the inbox lists it: file, function, line, column, whether it is the app's code. */
function shownFrame(frame: unknown): JsonObject | null {
  if (!isJsonObject(frame)) return null;
  const file =
    textField(frame.filename, KEPT.fileChars) ??
    textField(frame.abs_path, KEPT.fileChars) ??
    textField(frame.module, KEPT.fileChars);
  return {
    filename: file,
    function: textField(frame.function, KEPT.functionChars),
    lineno: finite(frame.lineno),
    colno: finite(frame.colno),
    in_app: typeof frame.in_app === 'boolean' ? frame.in_app : undefined,
  };
}

/** The main exception (the one grouped and shown): its type, value and newest frames. */
function shownException(event: JsonObject) {
  const main = mainExceptionOf(event);
  if (!main) return undefined;
  const stacktrace = isJsonObject(main.stacktrace) ? main.stacktrace : undefined;
  const frames = Array.isArray(stacktrace?.frames) ? stacktrace.frames : [];
  return {
    type: textField(main.type, KEPT.typeChars),
    value: textField(main.value, KEPT.valueChars),
    frames: frames
      .slice(-KEPT.frames)
      .map(shownFrame)
      .filter((f) => f !== null),
  };
}

function shownBreadcrumb(crumb: unknown): JsonObject | null {
  if (!isJsonObject(crumb)) return null;
  return {
    timestamp: finite(crumb.timestamp),
    category: textField(crumb.category, KEPT.wordChars),
    level: textField(crumb.level, KEPT.wordChars),
    message: textField(crumb.message, KEPT.crumbMessageChars),
    data: shownEntries(crumb.data, KEPT.crumbData),
  };
}

const byteLength = (text: string) => Buffer.byteLength(text);

/**
 * The part of a report (already redacted) that is stored: what the operator's inbox shows and
 * nothing else — the event id and level, the main exception with its newest frames (file,
 * function, line, in-app), a server error's printed stack, the latest breadcrumbs (category,
 * level, message, a few data entries) and a few tags — every text cut short. Contexts, extra, the
 * request, modules and debug data are never kept: the row's columns already hold the route, page,
 * browser and release. When even that passes STORED_EVENT_MAX_BYTES (long lines of multi-byte or
 * escaped characters), the oldest breadcrumbs, then the outermost frames, then tags, then the
 * stack's tail go, and the report is marked `"_truncated": true`.
 */
export function storedEventJson(event: JsonObject): string {
  const exception = shownException(event);
  const frames = exception?.frames ?? [];
  const crumbs = breadcrumbsOf(event)
    .slice(-KEPT.breadcrumbs)
    .map(shownBreadcrumb)
    .filter((c) => c !== null);
  const tags = Object.entries(shownEntries(event.tags, KEPT.tags) ?? {});
  let stack = textField(event.stack, KEPT.stackChars);
  let truncated = false;
  const compose = () =>
    JSON.stringify({
      event_id: textField(event.event_id, 64),
      level: textField(event.level, 20),
      exception: exception
        ? { values: [{ type: exception.type, value: exception.value, stacktrace: { frames } }] }
        : undefined,
      stack,
      breadcrumbs: crumbs,
      tags: tags.length > 0 ? Object.fromEntries(tags) : undefined,
      _truncated: truncated || undefined,
    });

  let text = compose();
  if (byteLength(text) <= STORED_EVENT_MAX_BYTES) return text;
  truncated = true;
  /** Each step removes half of what is left of one part; false once that part is empty. */
  const halve = (list: unknown[]) => list.splice(0, Math.ceil(list.length / 2)).length > 0;
  const steps = [
    () => halve(crumbs),
    () => halve(frames),
    () => halve(tags),
    () => {
      if (!stack) return false;
      stack = stack.slice(0, Math.floor(stack.length / 2));
      return true;
    },
  ];
  for (const step of steps) {
    while (step()) {
      text = compose();
      if (byteLength(text) <= STORED_EVENT_MAX_BYTES) return text;
    }
  }
  // Left: the exception's type and value, each cut well under the cap even escaped.
  return text;
}

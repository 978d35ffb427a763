import { randomBytes } from 'node:crypto';
import { breadcrumbsOf, isJsonObject } from '@pipit/protocol';
import type { JsonObject } from './envelope';

/** A stored report's JSON is kept under this size; what does not fit is dropped, biggest first. */
export const EVENT_JSON_MAX_BYTES = 256 * 1024;

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

/** The exception values with at most `frames` frames each (the newest: the end of the list). */
function trimFrames(exception: unknown, frames: number): unknown {
  if (!isJsonObject(exception) || !Array.isArray(exception.values)) return exception;
  return {
    ...exception,
    values: exception.values.map((value: unknown) => {
      if (!isJsonObject(value) || !isJsonObject(value.stacktrace)) return value;
      const list = value.stacktrace.frames;
      if (!Array.isArray(list)) return value;
      return { ...value, stacktrace: { ...value.stacktrace, frames: list.slice(-frames) } };
    }),
  };
}

/**
 * The report as JSON text of at most EVENT_JSON_MAX_BYTES: whole when it fits; otherwise without
 * the parts an operator needs least (debug data, extra context, old breadcrumbs, deep stacks), and
 * marked `"_truncated": true`.
 */
export function cappedEventJson(event: JsonObject): string {
  const whole = JSON.stringify(event);
  if (Buffer.byteLength(whole) <= EVENT_JSON_MAX_BYTES) return whole;
  const steps: Array<(e: JsonObject) => JsonObject> = [
    ({ debug_meta: _d, modules: _m, spans: _s, sdk: _k, ...e }) => e,
    ({ extra: _x, ...e }) => e,
    (e) => ({ ...e, breadcrumbs: breadcrumbsOf(e).slice(-20) }),
    ({ contexts: _c, ...e }) => e,
    (e) => ({ ...e, exception: trimFrames(e.exception, 30) }),
    ({ breadcrumbs: _b, ...e }) => e,
  ];
  let trimmed: JsonObject = { ...event, _truncated: true };
  for (const step of steps) {
    trimmed = step(trimmed);
    const text = JSON.stringify(trimmed);
    if (Buffer.byteLength(text) <= EVENT_JSON_MAX_BYTES) return text;
  }
  // Still too big (a giant message): what identifies it, each part cut short.
  return JSON.stringify({
    event_id: trimmed.event_id,
    level: trimmed.level,
    message: textField(trimmed.message, 4_000),
    exception: JSON.stringify(trimmed.exception ?? null).slice(0, 64 * 1024),
    _truncated: true,
  });
}

/**
 * Sentry envelopes, as the browser SDK posts them to its tunnel
 * (docs/library-notes.md#error-reporting): a first line with the envelope header (JSON: `event_id`,
 * `dsn`, `sdk`, `sent_at`), then for each item a header line (JSON with `type` and maybe `length`)
 * and its payload — `length` bytes when the header gives it (attachments, replays: binary allowed),
 * otherwise everything up to the next newline.
 */

export type JsonObject = Record<string, unknown>;

export interface EnvelopeItem {
  header: JsonObject & { type: string };
  payload: Uint8Array;
}

export interface Envelope {
  header: JsonObject;
  items: EnvelopeItem[];
}

/** What about an envelope could not be read; the tunnel answers 400 with it. */
export class MalformedEnvelopeError extends Error {}

const NEWLINE = 0x0a;
const decoder = new TextDecoder('utf-8', { fatal: true });
const encoder = new TextEncoder();

function jsonObject(bytes: Uint8Array, what: string): JsonObject {
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(bytes));
  } catch {
    throw new MalformedEnvelopeError(`The ${what} is not JSON.`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new MalformedEnvelopeError(`The ${what} is not a JSON object.`);
  }
  return value as JsonObject;
}

/** Reads an envelope; throws MalformedEnvelopeError for anything that is not one. */
export function parseEnvelope(body: Uint8Array): Envelope {
  let offset = 0;
  /** The bytes up to the next newline (or the end), and moves past the newline. */
  const line = (): Uint8Array => {
    let end = body.indexOf(NEWLINE, offset);
    if (end < 0) end = body.length;
    const bytes = body.subarray(offset, end);
    offset = end + 1;
    return bytes;
  };

  if (body.length === 0) throw new MalformedEnvelopeError('The envelope is empty.');
  const header = jsonObject(line(), 'envelope header (first line)');
  const items: EnvelopeItem[] = [];
  while (offset < body.length) {
    const headerLine = line();
    // A trailing newline, or blank lines between items, end nothing and start nothing.
    if (headerLine.length === 0) continue;
    const itemHeader = jsonObject(headerLine, `header of item ${items.length + 1}`);
    if (typeof itemHeader.type !== 'string' || itemHeader.type === '') {
      throw new MalformedEnvelopeError(`Item ${items.length + 1} has no type.`);
    }
    const { length } = itemHeader;
    let payload: Uint8Array;
    if (length === undefined) {
      payload = line();
    } else {
      if (typeof length !== 'number' || !Number.isSafeInteger(length) || length < 0) {
        throw new MalformedEnvelopeError(`Item ${items.length + 1} has an invalid length.`);
      }
      if (offset + length > body.length) {
        throw new MalformedEnvelopeError(`Item ${items.length + 1} is shorter than its length.`);
      }
      payload = body.subarray(offset, offset + length);
      offset += length;
      // The payload ends where its length says: a newline or the end of the envelope follows.
      if (offset < body.length && body[offset] !== NEWLINE) {
        throw new MalformedEnvelopeError(`Item ${items.length + 1} is longer than its length.`);
      }
      offset += 1;
    }
    items.push({ header: itemHeader as EnvelopeItem['header'], payload });
  }
  return { header, items };
}

/** An item's payload as a JSON object (events, transactions). */
export function itemJson(item: EnvelopeItem): JsonObject {
  return jsonObject(item.payload, `payload of the ${item.header.type} item`);
}

/** Writes an envelope back out; item lengths are set from the payloads. */
export function serializeEnvelope(envelope: Envelope): Uint8Array {
  const parts: Uint8Array[] = [encoder.encode(JSON.stringify(envelope.header))];
  for (const item of envelope.items) {
    const header = { ...item.header, length: item.payload.byteLength };
    parts.push(encoder.encode(`\n${JSON.stringify(header)}\n`), item.payload);
  }
  const total = parts.reduce((sum, part) => sum + part.byteLength, 0);
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.byteLength;
  }
  return bytes;
}

export function jsonPayload(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value));
}

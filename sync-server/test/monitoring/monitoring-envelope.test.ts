import { describe, expect, it } from 'vitest';
import { clientEventRecord } from '../../src/monitoring/client-event';
import { envelopeEndpoint, formatDsn, parseDsn, sameDsn, sentryAuthHeader } from '../../src/dsn';
import {
  MalformedEnvelopeError,
  parseEnvelope,
  serializeEnvelope,
} from '../../src/monitoring/envelope';
import { STORED_EVENT_MAX_BYTES, storedEventJson } from '../../src/monitoring/event-json';
import {
  fingerprintOf,
  normalizeFilename,
  normalizeMessage,
} from '../../src/monitoring/fingerprint';
import { parseStack, serverErrorRecord } from '../../src/monitoring/server-error';
import { errorEvent, sentryEnvelope } from '../support/collector';

const utf8 = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');

describe('parseEnvelope', () => {
  it('reads the header and each item, with and without a length, binary payloads too', () => {
    const binary = new Uint8Array([0, 10, 255, 10, 1]); // newlines inside: only `length` frames it
    const body = sentryEnvelope({ event_id: 'e1', dsn: 'http://k@h/1' }, [
      { type: 'event', payload: { message: 'héllo' } },
      { type: 'attachment', payload: binary, withLength: true },
      { type: 'client_report', payload: { discarded_events: [] }, withLength: true },
    ]);
    const envelope = parseEnvelope(Buffer.concat([body, Buffer.from('\n')]));
    expect(envelope.header).toEqual({ event_id: 'e1', dsn: 'http://k@h/1' });
    expect(envelope.items.map((i) => i.header.type)).toEqual([
      'event',
      'attachment',
      'client_report',
    ]);
    expect(JSON.parse(utf8(envelope.items[0]!.payload))).toEqual({ message: 'héllo' });
    expect([...envelope.items[1]!.payload]).toEqual([...binary]);
    expect(utf8(envelope.items[2]!.payload)).toBe('{"discarded_events":[]}');
  });

  it('writes back what it reads, with lengths', () => {
    const body = sentryEnvelope({ dsn: 'http://k@h/1' }, [
      { type: 'event', payload: { a: 1 } },
      { type: 'attachment', payload: new Uint8Array([1, 10, 2]), withLength: true },
    ]);
    const again = parseEnvelope(serializeEnvelope(parseEnvelope(body)));
    expect(again.items.map((i) => [i.header, [...i.payload]])).toEqual([
      [{ type: 'event', length: 7 }, [...Buffer.from('{"a":1}')]],
      [{ type: 'attachment', length: 3 }, [1, 10, 2]],
    ]);
  });

  it.each([
    ['an empty body', ''],
    ['a first line that is not JSON', 'hello\n{"type":"event"}\n{}'],
    ['a first line that is a JSON array', '[1]\n{"type":"event"}\n{}'],
    ['an item header that is not JSON', '{}\nnot json\n{}'],
    ['an item without a type', '{}\n{"length":2}\n{}'],
    ['a length past the end', '{}\n{"type":"event","length":50}\n{}'],
    ['a payload longer than its length', '{}\n{"type":"event","length":1}\n{}'],
    ['a negative length', '{}\n{"type":"event","length":-1}\n{}'],
    ['bytes that are not UTF-8 in a header', Buffer.from([0x7b, 0xff, 0x7d])],
  ])('refuses %s', (_, body) => {
    expect(() => parseEnvelope(typeof body === 'string' ? Buffer.from(body) : body)).toThrow(
      MalformedEnvelopeError,
    );
  });
});

describe('DSNs', () => {
  it('parses key, host with port, path prefix and project, and writes them back', () => {
    const dsn = parseDsn('https://abc123@Errors.Example.org:8443/sentry/42');
    expect(dsn).toEqual({
      protocol: 'https:',
      publicKey: 'abc123',
      host: 'errors.example.org:8443',
      pathPrefix: '/sentry',
      projectId: '42',
    });
    expect(formatDsn(dsn!)).toBe('https://abc123@errors.example.org:8443/sentry/42');
    expect(envelopeEndpoint(dsn!)).toBe('https://errors.example.org:8443/sentry/api/42/envelope/');
    expect(sentryAuthHeader(dsn!)).toBe(
      'Sentry sentry_version=7, sentry_key=abc123, sentry_client=pipit-tunnel/1',
    );
  });

  it.each([
    'https://errors.example.org/42',
    'https://key@errors.example.org/',
    'ftp://key@errors.example.org/42',
    'https://key@errors.example.org/42?x=1',
    'not a url',
  ])('is not a DSN: %s', (text) => expect(parseDsn(text)).toBeNull());

  it('compares key, host and project', () => {
    const a = parseDsn('https://k@h.example/1')!;
    expect(sameDsn(a, parseDsn('http://k@H.example/1')!)).toBe(true);
    expect(sameDsn(a, parseDsn('https://x@h.example/1')!)).toBe(false);
    expect(sameDsn(a, parseDsn('https://k@h.example:444/1')!)).toBe(false);
    expect(sameDsn(a, parseDsn('https://k@h.example/2')!)).toBe(false);
  });
});

describe('grouping', () => {
  it('takes ids, hashes and numbers out of messages', () => {
    expect(normalizeMessage('App abcdefghijklmnopqrstuvwx23 not found after 3 tries')).toBe(
      'App <id> not found after <n> tries',
    );
    expect(
      normalizeMessage('Request 1f3e9a0b77 failed for 123e4567-e89b-12d3-a456-426614174000'),
    ).toBe('Request <hex> failed for <uuid>');
    expect(normalizeMessage("Cannot read properties of undefined (reading 'title')")).toBe(
      "Cannot read properties of undefined (reading 'title')",
    );
  });

  it('names a bundle the same across builds and hosts', () => {
    expect(normalizeFilename('https://pipit.example.org/assets/index-BKx3Yc9f.js?v=2')).toBe(
      '/assets/index.js',
    );
    expect(normalizeFilename('http://localhost:8080/assets/index-Qq81_a0Z.js')).toBe(
      '/assets/index.js',
    );
  });

  it('groups two occurrences that differ only in ids and build, and splits other frames', () => {
    const a = clientEventRecord(
      errorEvent({
        message: 'Habit 41 has no title',
        frame: { filename: 'https://a.example/assets/index-AAAAAAAA.js', function: 'save' },
      }),
      1,
    );
    const b = clientEventRecord(
      errorEvent({
        message: 'Habit 7 has no title',
        frame: { filename: 'http://b.example/assets/index-BBBBBBBB.js', function: 'save' },
      }),
      2,
    );
    const elsewhere = clientEventRecord(
      errorEvent({
        message: 'Habit 7 has no title',
        frame: { filename: 'http://b.example/assets/index-BBBBBBBB.js', function: 'load' },
      }),
      3,
    );
    expect(a.fingerprint).toBe(b.fingerprint);
    expect(a.topFrame).toBe('/assets/index.js:save');
    expect(elsewhere.fingerprint).not.toBe(a.fingerprint);
    expect(fingerprintOf({ type: 'TypeError', message: 'x', topFrame: null })).not.toBe(
      fingerprintOf({ type: 'RangeError', message: 'x', topFrame: null }),
    );
  });

  it('describes a browser report: route, page without query, browser, release', () => {
    const record = clientEventRecord(errorEvent({ route: '/apps/$appId/edit' }), 5);
    expect(record).toMatchObject({
      source: 'client',
      type: 'TypeError',
      route: '/apps/$appId/edit',
      browser: 'Chrome 126',
      release: 'pipit@0.1.0',
      environment: 'production',
      level: 'error',
      receivedAt: 5,
    });
  });
});

/** A report as a page that wants to fill the disk sends it: the most the tunnel takes. */
function floodingEvent(): Record<string, unknown> {
  const blob = 'x'.repeat(250_000);
  return errorEvent({
    message: 'y'.repeat(50_000),
    frame: { filename: `https://h/${'f'.repeat(10_000)}.js`, function: 'g'.repeat(10_000) },
    extra: {
      contexts: { big: { blob }, browser: { name: 'Chrome', version: '126.0' } },
      extra: { blob },
      modules: { blob },
      breadcrumbs: Array.from({ length: 100 }, (_, i) => ({
        category: 'c'.repeat(5_000),
        message: `${i}`.repeat(2_048),
        data: Object.fromEntries(
          Array.from({ length: 50 }, (_, k) => [`k${k}`, 'v'.repeat(5_000)]),
        ),
      })),
      tags: Object.fromEntries(Array.from({ length: 500 }, (_, k) => [`t${k}`, 'v'.repeat(5_000)])),
    },
  });
}

describe('what is stored of a report', () => {
  it('keeps exactly what the inbox shows of an ordinary report', () => {
    const event = errorEvent();
    const stored = JSON.parse(storedEventJson(event)) as Record<string, unknown>;
    expect(stored).toEqual({
      event_id: event.event_id,
      level: 'error',
      exception: {
        values: [
          {
            type: 'TypeError',
            value: "Cannot read properties of undefined (reading 'title')",
            stacktrace: {
              frames: [
                {
                  filename: 'http://localhost:8080/assets/vendor-Zx81Qa0p.js',
                  function: 'a',
                  in_app: false,
                },
                {
                  filename: 'http://localhost:8080/assets/index-BKx3Yc9f.js',
                  function: 'saveHabit',
                  lineno: 1,
                  colno: 2048,
                  in_app: true,
                },
                {
                  filename: 'http://localhost:8080/assets/vendor-Zx81Qa0p.js',
                  function: 'b',
                  in_app: false,
                },
              ],
            },
          },
        ],
      },
      breadcrumbs: [
        { category: 'navigation', data: { from: '/reset?token=abc', to: '/apps' } },
        { category: 'console', message: 'saving', data: { arguments: '["my habit list"]' } },
      ],
      tags: { route: '/apps/$appId/edit' },
    });
  });

  it('stores a few kilobytes of a report padded with 250 KB of contexts, extra and breadcrumbs', () => {
    const event = floodingEvent();
    expect(JSON.stringify(event).length).toBeGreaterThan(1_000_000);
    const text = storedEventJson(event);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(STORED_EVENT_MAX_BYTES);
    const stored = JSON.parse(text) as Record<string, unknown>;
    for (const part of ['contexts', 'extra', 'modules', 'request'])
      expect(stored[part]).toBeUndefined();
    expect(stored._truncated).toBe(true);
    // What identifies it stays: the exception's type and the start of its value.
    const exception = stored.exception as { values: Array<{ type: string; value: string }> };
    expect(exception.values[0]?.type).toBe('TypeError');
    expect(exception.values[0]?.value).toMatch(/^y{2000}$/);

    const record = clientEventRecord(event, 1);
    for (const column of [record.message, record.topFrame, record.route, record.url]) {
      expect((column ?? '').length).toBeLessThanOrEqual(2_000);
    }
  });

  it('stays under the cap whatever the characters (escaped, multi-byte)', () => {
    const nasty = '\u0001😀"'.repeat(3_000);
    const text = storedEventJson({
      exception: { values: [{ type: nasty, value: nasty }] },
      stack: nasty,
      breadcrumbs: Array.from({ length: 30 }, () => ({ message: nasty, data: { a: nasty } })),
      tags: Object.fromEntries(Array.from({ length: 20 }, (_, k) => [`${k}${nasty}`, nasty])),
    });
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(STORED_EVENT_MAX_BYTES);
  });

  it('keeps a server error’s printed stack with its cause under it', () => {
    const error = new Error('the query failed', { cause: new Error('connection reset') });
    const stored = JSON.parse(serverErrorRecord({ error, digest: 'abc' }, 1).eventJson) as {
      stack: string;
      tags: Record<string, unknown>;
    };
    expect(stored.stack).toContain('Error: the query failed');
    expect(stored.stack).toContain('[cause]: Error: connection reset');
    expect(stored.tags).toMatchObject({ digest: 'abc' });
  });
});

describe('server errors', () => {
  it('reads a V8 stack oldest first, paths relative, library frames not in-app', () => {
    const stack = [
      'Error: the database is on fire',
      '    at findUser (/srv/pipit/sync-server/src/http/profiles.ts:20:11)',
      '    at async dispatch (file:///srv/pipit/node_modules/hono/dist/compose.js:22:17)',
      '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
    ].join('\n');
    const frames = parseStack(stack, '/srv/pipit');
    expect(frames.map((f) => [f.filename, f.function, f.in_app])).toEqual([
      ['node:internal/process/task_queues', 'process.processTicksAndRejections', false],
      ['node_modules/hono/dist/compose.js', 'dispatch', false],
      ['sync-server/src/http/profiles.ts', 'findUser', true],
    ]);
  });

  it('records type, message, stack, digest, method and path without the query', () => {
    const record = serverErrorRecord(
      {
        error: new Error('the database is on fire'),
        digest: 'abcdef012345',
        method: 'GET',
        path: '/api/profiles/ada?token=secret',
        requestId: 'req-1',
      },
      1_000,
    );
    expect(record).toMatchObject({
      source: 'server',
      type: 'Error',
      message: 'the database is on fire',
      digest: 'abcdef012345',
      route: '/api/profiles/ada',
      receivedAt: 1_000,
    });
    expect(record.topFrame).toMatch(
      /^sync-server\/test\/monitoring\/monitoring-envelope\.test\.ts:/,
    );
    const event = JSON.parse(record.eventJson) as Record<string, unknown>;
    expect(event.stack).toContain('Error: the database is on fire');
    expect(event.tags).toEqual({ digest: 'abcdef012345', request_id: 'req-1', method: 'GET' });
    expect(record.eventJson).not.toContain('secret');
  });
});

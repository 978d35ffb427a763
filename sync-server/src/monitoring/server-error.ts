import path from 'node:path';
import { redactUrl, redactUrlSecretsInText } from '@pipit/protocol';
import type { ErrorEventRecord } from '../storage/types';
import { VERSION } from '../version';
import { eventIdOf, storedEventJson } from './event-json';
import {
  type ErrorIdentity,
  fingerprintOf,
  frameLabel,
  type StackFrame,
  topInAppFrame,
} from './fingerprint';

/**
 * A failure of this server that a person saw as the generic error with a digest
 * (docs/product/errors.md).
 */
export interface ServerErrorReport {
  error: unknown;
  digest: string;
  method?: string | undefined;
  /**
   * The request's path; a query is cut off and a secret segment (`/join/{token}`) replaced: both
   * can carry tokens (url-secrets.ts).
   */
  path?: string | undefined;
  requestId?: string | undefined;
}

interface ParsedFrame extends StackFrame {
  filename: string;
  function: string;
  lineno: number;
  colno: number;
  in_app: boolean;
}

/** `    at fn (file:line:col)` or `    at file:line:col` */
const V8_FRAME = /^\s*at (?:(.+?) \()?(.+?):(\d+):(\d+)\)?$/;

/**
 * A V8 stack's frames in the report format's order (oldest first), files relative to the working
 * directory so a group does not depend on where the server is installed; the app's own code is the
 * part outside node_modules and Node's internals.
 */
export function parseStack(stack: string, root = process.cwd()): ParsedFrame[] {
  const frames: ParsedFrame[] = [];
  for (const line of stack.split('\n')) {
    const match = V8_FRAME.exec(line);
    if (!match) continue;
    const [, fn, location = '', lineno = '0', colno = '0'] = match;
    let file = location.replace(/^file:\/\//, '').replace(/[?#].*$/, '');
    if (path.isAbsolute(file)) file = path.relative(root, file);
    frames.push({
      filename: file,
      function: fn?.replace(/^async /, '') ?? '<anonymous>',
      lineno: Number(lineno),
      colno: Number(colno),
      in_app: !file.includes('node_modules') && !file.startsWith('node:'),
    });
  }
  return frames.reverse();
}

function describe(error: unknown): { type: string; message: string; stack: string | undefined } {
  if (error instanceof Error) {
    return { type: error.name || 'Error', message: error.message, stack: error.stack };
  }
  return { type: 'NonError', message: String(error), stack: undefined };
}

function describeCause(cause: unknown): string {
  const { type, message, stack } = describe(cause);
  return stack ?? `${type}: ${message}`;
}

/** A server failure as a stored occurrence, grouped like browser reports (`source: 'server'`). */
export function serverErrorRecord(
  report: ServerErrorReport,
  receivedAt: number,
  environment: string | null = null,
): ErrorEventRecord {
  const described = describe(report.error);
  const type = described.type;
  // An error's words can quote the URL that failed (`/api/space-invites/{token}`): the same rule.
  const message = redactUrlSecretsInText(described.message);
  const stack = described.stack === undefined ? undefined : redactUrlSecretsInText(described.stack);
  const frames = stack ? parseStack(stack) : [];
  const top = topInAppFrame(frames);
  const identity: ErrorIdentity = {
    type: type.slice(0, 200),
    message: message.slice(0, 2_000),
    topFrame: top ? frameLabel(top) : null,
  };
  const cause = report.error instanceof Error ? report.error.cause : undefined;
  // The inbox shows the printed stack: the cause goes under it, as Node prints one.
  const causeText = cause === undefined ? null : redactUrlSecretsInText(describeCause(cause));
  const printed = [stack, causeText].filter((part) => part).join('\n[cause]: ');
  const route = report.path ? redactUrlSecretsInText(redactUrl(report.path)) : null;
  const event = {
    event_id: eventIdOf(),
    timestamp: receivedAt / 1000,
    level: 'error',
    platform: 'node',
    release: VERSION,
    environment,
    exception: { values: [{ type, value: message, stacktrace: { frames } }] },
    // The stack as Node printed it, for reading; `frames` above is what grouping used.
    stack: printed || null,
    // The path is the row's route; the method is a tag, which the inbox shows.
    tags: {
      digest: report.digest,
      request_id: report.requestId ?? null,
      method: report.method ?? null,
    },
  };
  return {
    id: event.event_id,
    fingerprint: fingerprintOf(identity),
    source: 'server',
    ...identity,
    receivedAt,
    digest: report.digest,
    route,
    url: route,
    browser: null,
    release: VERSION,
    environment,
    level: 'error',
    eventJson: storedEventJson(event),
  };
}

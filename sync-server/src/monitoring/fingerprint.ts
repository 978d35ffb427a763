import { createHash } from 'node:crypto';

/** What makes two reports "the same error": its type, its message and where it was thrown. */
export interface ErrorIdentity {
  type: string;
  message: string;
  /** The top in-app frame, `filename:function`; null without a stack. */
  topFrame: string | null;
}

/** One stack frame as the Sentry event format has it (oldest first in `frames`). */
export interface StackFrame {
  filename?: unknown;
  abs_path?: unknown;
  module?: unknown;
  function?: unknown;
  in_app?: unknown;
}

const MESSAGE_MAX_CHARS = 1_000;

/**
 * The message with what varies between occurrences taken out — ids, hashes, numbers — so "App
 * 3f2a… not found" and "App 9c1b… not found" are one group.
 */
export function normalizeMessage(message: string): string {
  return message
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>')
    .replace(/\b(?=[a-z2-7]*[2-7])[a-z2-7]{26}\b/g, '<id>')
    .replace(/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b/gi, '<hex>')
    .replace(/\d+(?:\.\d+)?/g, '<n>')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, MESSAGE_MAX_CHARS);
}

/**
 * A frame's file as the same across builds and hosts: no origin, query or fragment, and no content
 * hash in a bundle's name (Vite's `index-BKx3Yc9f.js`), so a new deploy does not split every group.
 */
export function normalizeFilename(filename: string): string {
  let name = filename;
  try {
    const url = new URL(name);
    if (url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'file:') {
      name = url.pathname;
    }
  } catch {
    // Not a URL: a path or a module name, kept as it is.
  }
  return name.replace(/[?#].*$/, '').replace(/-[A-Za-z0-9_]{8}(?=\.[cm]?js$)/, '');
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/** A frame label is stored with its group and shown in a list: a sent one can be any length. */
const FRAME_LABEL_MAX_CHARS = 500;

/** `filename:function` of a frame. */
export function frameLabel(frame: StackFrame): string {
  const file = text(frame.filename) ?? text(frame.abs_path) ?? text(frame.module) ?? '?';
  return `${normalizeFilename(file)}:${text(frame.function) ?? '?'}`.slice(
    0,
    FRAME_LABEL_MAX_CHARS,
  );
}

/**
 * The frame nearest the throw that is the app's own code: frames are oldest first, so the last one
 * marked in-app; when the SDK marked none, the last one not marked as library code.
 */
export function topInAppFrame(frames: readonly StackFrame[]): StackFrame | undefined {
  return frames.findLast((f) => f.in_app === true) ?? frames.findLast((f) => f.in_app !== false);
}

/** The group key: a hash of the type, the normalised message and the top in-app frame. */
export function fingerprintOf(identity: ErrorIdentity): string {
  return createHash('sha256')
    .update(`${identity.type}\n${normalizeMessage(identity.message)}\n${identity.topFrame ?? ''}`)
    .digest('hex')
    .slice(0, 32);
}

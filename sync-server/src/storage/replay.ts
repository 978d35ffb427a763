import * as Y from 'yjs';
import type { StoredDocument } from './types';

/**
 * Applies what storage holds for a document — its snapshot, then its logged updates in order —
 * to `doc`. One logged update that does not apply is skipped (and reported), not the rest: the
 * server checked each before logging it, so this is a defect, not an attack. Used to load a
 * document, to publish one, and to fold what other instances stored into a live one; it sits with
 * storage so the services that read documents (collab, publishing) share it without importing
 * each other.
 */
export function replayInto(
  doc: Y.Doc,
  stored: StoredDocument,
  options: {
    origin?: unknown;
    skipSnapshot?: boolean;
    onSkipped?: (seq: number, error: unknown) => void;
  } = {},
): void {
  const { origin = null } = options;
  if (stored.snapshot && !options.skipSnapshot) Y.applyUpdate(doc, stored.snapshot, origin);
  for (const { seq, update } of stored.log) {
    try {
      Y.applyUpdate(doc, update, origin);
    } catch (error) {
      options.onSkipped?.(seq, error);
    }
  }
}

import { documentName } from '@pipit/protocol';
import * as Y from 'yjs';
import type { Logger } from '../logger';
import type { DocumentStore } from '../storage/types';
import { replayInto } from '../storage/replay';

/** The documents this instance has loaded (Hocuspocus's map), by name. */
export interface LiveDocuments {
  get(name: string): Y.Doc | undefined;
}

/**
 * An app's definition document with every acknowledged edit in it, for publishing. The server logs
 * each update before acknowledging it, so the stored snapshot plus its update log hold them all,
 * whichever instance received them; the live document, when this instance has it loaded, is merged
 * in too (Yjs updates merge idempotently). The result is a copy: nothing here touches the live one.
 */
export async function loadAppDocument(
  appId: string,
  documents: DocumentStore,
  live: LiveDocuments | undefined,
  logger: Logger,
): Promise<Y.Doc> {
  const name = documentName({ kind: 'app', appId });
  const doc = new Y.Doc();
  replayInto(doc, await documents.loadWithLog(name), {
    // Persistence skips such an update when it loads the document; so does publishing.
    onSkipped: (seq, error) =>
      logger.warn(
        { err: error, documentName: name, seq },
        'skipped a logged update that does not apply',
      ),
  });
  const loaded = live?.get(name);
  if (loaded) Y.applyUpdate(doc, Y.encodeStateAsUpdate(loaded));
  return doc;
}

import type {
  afterHandleMessagePayload,
  afterUnloadDocumentPayload,
  beforeHandleMessagePayload,
  Extension,
} from '@hocuspocus/server';
import { parseDocumentName } from '@pipit/protocol';
import * as Y from 'yjs';
import type { Logger } from '../logger';
import type { ConnectionContext } from './authenticate';
import { updateInMessage } from './sync-message';

/** What the server does in an app document itself, so its own corrections are told apart. */
const OWNER_ONLY_ORIGIN = { source: 'pipit-owner-only' } as const;

/** `meta.archived` as the definition reads it: archived only when it is `true`. */
const archivedIn = (doc: Y.Doc) => doc.getMap<unknown>('meta').get('archived') === true;

/** The item holding `meta.archived` now (deleted when the key was removed), if it was ever set. */
const archivedItem = (doc: Y.Doc): Y.Item | undefined =>
  (doc.getMap<unknown>('meta') as unknown as { _map: Map<string, Y.Item> })._map.get('archived');

/**
 * Archiving an app is its owner's (SPEC §8), yet it is an edit of the app's document
 * (`meta.archived`), so it works offline like any other. An editor's connection may write that
 * document, so the server undoes any change of `meta.archived` an editor makes, as a change of its
 * own: the editor's other edits stand, their device gets the correction as it gets a collaborator's
 * edit, and their sync never stalls on a refused update (a refused update would be sent again, with
 * every later edit, on each reconnect).
 *
 * Who made the change is read from the document, not from the message being handled: an update
 * can wait in Yjs for a missing part and apply while someone else's message is handled. The item
 * now holding `meta.archived` was written by a Yjs client id; the ids an editor's updates carry are
 * remembered per document. A removed key is undone too (Pipit sets `archived`, it never removes it).
 * The Studio shows Archive to the owner only, so this answers a modified client, not a person.
 */
export function createOwnerOnlyFields(logger: Logger): Extension {
  /** Per app document: the Yjs client ids seen in its editors' updates. */
  const editorClients = new Map<string, Set<number>>();
  /** `meta.archived` before the message each connection is handling now (one at a time each). */
  const before = new WeakMap<object, boolean>();

  return {
    extensionName: 'pipit-owner-only',

    beforeHandleMessage({
      context,
      document,
      documentName,
      update: message,
      connection,
    }: beforeHandleMessagePayload<ConnectionContext>) {
      if (parseDocumentName(documentName)?.kind !== 'app') return Promise.resolve();
      // A malformed message was refused by the persistence extension, before this runs.
      const update = updateInMessage(message);
      if (!update) return Promise.resolve();
      before.set(connection, archivedIn(document));
      if (context?.role === 'editor') {
        const clients = editorClients.get(documentName) ?? new Set<number>();
        editorClients.set(documentName, clients);
        for (const client of Y.parseUpdateMeta(update).to.keys()) clients.add(client);
      }
      return Promise.resolve();
    },

    afterHandleMessage({ document, documentName, connection }: afterHandleMessagePayload) {
      if (!before.has(connection)) return Promise.resolve();
      const previous = before.get(connection)!;
      before.delete(connection);
      if (archivedIn(document) === previous) return Promise.resolve();
      const item = archivedItem(document);
      const byEditor =
        !item || item.deleted || editorClients.get(documentName)?.has(item.id.client);
      if (!byEditor) return Promise.resolve();
      document.transact(() => {
        document.getMap<unknown>('meta').set('archived', previous);
      }, OWNER_ONLY_ORIGIN);
      logger.warn(
        { documentName, archived: previous },
        'undid an editor’s change of meta.archived (archiving is the owner’s)',
      );
      return Promise.resolve();
    },

    afterUnloadDocument({ documentName }: afterUnloadDocumentPayload) {
      editorClients.delete(documentName);
      return Promise.resolve();
    },
  };
}

import * as Y from 'yjs';
import { parseDocumentName } from '@pipit/protocol';
import type { DecodedUpdate } from './yjs-integration';

/*
 * Who writes under which Yjs client id of a shared document (issue 37). A Yjs client id is chosen
 * by the client and says nothing of who sent it: a space's member could write at another member's
 * next clocks — garbage, or an item in her own record — and when his edits made offline at those
 * clocks arrived, the server had "them" already and dropped them, his device showing them saved.
 * So the first account to write new parts under a client id in a document owns it there
 * (`DocumentStore.claimClients`: the database decides between instances), and parts under a
 * client id someone else owns are refused. A device gets a new client id each time it opens a
 * document, so an honest one only ever writes under its own.
 *
 * Checked for documents several people write: an app's (its owner and editors) and a shared
 * space's. A visitor's own data and a person's own documents have one writer.
 */

/** Whether updates to this document are checked against who owns each client id. */
export function hasSeveralWriters(documentName: string): boolean {
  const kind = parseDocumentName(documentName)?.kind;
  return kind === 'app' || kind === 'space';
}

/** The client ids an update writes new parts under (items or garbage past what the document has). */
export function clientsWriting(decoded: DecodedUpdate, doc: Y.Doc): number[] {
  const clients = new Set<number>();
  for (const struct of decoded.structs) {
    if (struct instanceof Y.Skip) continue;
    const { client, clock } = struct.id;
    if (clock + struct.length > Y.getState(doc.store, client)) clients.add(client);
  }
  return [...clients];
}

/** What the update guard knows of a document's client ids: their owners read or claimed so far. */
export interface ClientWriter {
  /** The account sending the update. */
  userId: string;
  /** The owner of a client id in this document, as known now; undefined when not known yet. */
  ownerOf(client: number): string | undefined;
}

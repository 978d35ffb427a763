import { documentName, parseDocumentName } from '@pipit/protocol';
import type { Clock } from '../accounts/clock';
import type { Storage } from '../storage/types';
import type { Collab } from './create-collab';

export interface DataRemoval {
  /**
   * An app deleted forever: its row (versions, events and collaborators go with it), its definition
   * and every visitor's data for it. Installs stop syncing at once.
   */
  app(appId: string): Promise<void>;
  /**
   * A deleted account's data (docs/product/accounts.md: deleting an account): the apps it owns, as
   * `app` does; its place on apps shared with it; its private index and its data in every app it
   * used. Idempotent, so a removal that failed half-way can be run again. The caller ends the
   * person's sessions first, which closes their connections (create-server.ts).
   */
  account(userId: string): Promise<void>;
}

/**
 * Deleting documents while they may be open: the app's row goes first, so no connection is granted
 * to them any more; then each one loaded here (or being loaded) stops being written and loses its
 * connections (Collab.closeForDeletion), so a store on unload cannot bring it back; only then are
 * they deleted from storage.
 */
export function createDataRemoval(
  storage: Storage,
  collab: Pick<Collab, 'closeForDeletion'>,
  clock: Clock,
): DataRemoval {
  async function app(appId: string) {
    const definition = documentName({ kind: 'app', appId });
    await storage.apps.delete(appId, clock.now());
    await collab.closeForDeletion((name) => {
      const document = parseDocumentName(name);
      return document?.kind !== 'user' && document?.appId === appId;
    });
    await storage.documents.delete(definition);
    await storage.documents.deleteData({ appId });
    await storage.aiUsage.deleteForApp(appId);
  }

  async function account(userId: string) {
    for (const shared of await storage.apps.listForUser(userId)) {
      if (shared.role === 'owner') await app(shared.id);
      else await storage.apps.removeCollaborator(shared.id, userId);
    }
    const index = documentName({ kind: 'user', userId });
    await collab.closeForDeletion((name) => {
      const document = parseDocumentName(name);
      return document?.kind !== 'app' && document?.userId === userId;
    });
    await storage.documents.delete(index);
    await storage.documents.deleteData({ userId });
    await storage.aiUsage.deleteForUser(userId);
  }

  return { app, account };
}

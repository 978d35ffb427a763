import { documentName } from '@pipit/protocol';
import type { Clock } from '../accounts/clock';
import type { SpaceDeletion, Storage } from '../storage/types';
import type { Cluster } from './fan-out';

export interface DataRemoval {
  /**
   * An app deleted forever by `by` (its owner): its row (versions, events and collaborators go with
   * it), its definition, its spaces and every visitor's data for it. Installs stop syncing at once.
   */
  app(appId: string, by: string | null): Promise<void>;
  /**
   * A deleted account's data (docs/product/accounts.md: deleting an account): the apps it owns, as
   * `app` does; its place on apps shared with it; its private index and its data in every app it
   * used. Idempotent, so a removal that failed half-way can be run again. The caller ends the
   * person's sessions first, which closes their connections (server/cluster-events.ts).
   */
  account(userId: string): Promise<void>;
  /**
   * A shared space deleted (docs/product/spaces.md): its row is marked deleted, its members and
   * invitations go — each of them but the person who deleted it is told why it ended — then its
   * document, once every connection to it is closed.
   */
  space(spaceId: string, deletion: SpaceDeletion): Promise<void>;
  /**
   * A draft's document, once its row is closed (merged or deleted, docs/product/drafts.md), so no
   * connection is granted to it any more: closed on every instance, then deleted.
   */
  draft(appId: string, draftId: string): Promise<void>;
}

/**
 * Deleting documents while they may be open: the app's row goes first, so no connection is granted
 * to them any more; then each one loaded on any instance (or being loaded) stops being written and
 * loses its connections (the cluster's 'deleting' event: Collab.closeForDeletion on every instance),
 * so a store on unload cannot bring it back; only then are they deleted from storage. An instance
 * out of reach at that moment cannot bring an app's documents back either: a store checks, under a
 * lock the deletion waits for, that the app still exists (DocumentStore.compact).
 */
export function createDataRemoval(
  storage: Storage,
  cluster: Pick<Cluster, 'broadcast'>,
  clock: Clock,
): DataRemoval {
  async function space(spaceId: string, deletion: SpaceDeletion) {
    await storage.spaces.delete(spaceId, clock.now(), deletion);
    await cluster.broadcast({ kind: 'deleting', spaceId });
    await storage.documents.delete(documentName({ kind: 'space', spaceId }));
    await storage.recordFiles.deleteForSpace(spaceId);
  }

  async function draft(appId: string, draftId: string) {
    await cluster.broadcast({ kind: 'deleting', appId, draftId });
    await storage.documents.delete(documentName({ kind: 'draft', appId, draftId }));
  }

  async function app(appId: string, by: string | null) {
    const definition = documentName({ kind: 'app', appId });
    // Its shared spaces go with it: their records were kept for this app alone.
    for (const spaceId of await storage.spaces.idsOf({ appId })) {
      await space(spaceId, { why: 'app_deleted', by });
    }
    await storage.apps.delete(appId, clock.now());
    await cluster.broadcast({ kind: 'deleting', appId });
    await storage.documents.delete(definition);
    await storage.documents.deleteData({ draftsOf: appId });
    await storage.documents.deleteData({ appId });
    await storage.recordFiles.deleteForApp(appId);
    await storage.aiUsage.deleteForApp(appId);
  }

  async function account(userId: string) {
    for (const shared of await storage.apps.listForUser(userId)) {
      if (shared.role === 'owner') await app(shared.id, userId);
      else await storage.apps.removeCollaborator(shared.id, userId);
    }
    // The spaces they own go; they leave the others (their records there stay, by "a former
    // member", docs/product/spaces.md).
    for (const spaceId of await storage.spaces.idsOf({ ownerId: userId })) {
      await space(spaceId, { why: 'owner_left', by: userId });
    }
    await storage.spaces.removeMemberships(userId);
    const index = documentName({ kind: 'user', userId });
    await cluster.broadcast({ kind: 'deleting', userId });
    await storage.documents.delete(index);
    await storage.documents.deleteData({ userId });
    await storage.recordFiles.deleteForPersonData(userId);
    await storage.aiUsage.deleteForUser(userId);
    // The account's row stays (marked deleted), so its subscriptions and reminder choices do not go
    // by cascade: nothing is sent to a deleted account, and no occurrence of theirs is queued again.
    await storage.pushSubscriptions.deleteForUser(userId);
    await storage.reminderPreferences.deleteForUser(userId);
    // Their creators' notifications, email digest choice, digests and Pipit's own subscriptions:
    // a digest job still queued for them finds nothing, and sends nothing.
    await storage.creatorNotifications.deleteForUser(userId);
  }

  return { app, account, space, draft };
}

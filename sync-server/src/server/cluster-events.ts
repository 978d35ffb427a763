import { documentName, parseDocumentName } from '@pipit/protocol';
import type { DocumentAccess } from '../collab/access';
import type { ConnectionContext } from '../collab/authenticate';
import type { Collab } from '../collab/create-collab';
import type { ClusterEvent, ClusterOptions } from '../collab/fan-out';
import { SyncRefusal } from '../collab/refusal';
import type { Logger } from '../logger';
import { closeRefusedVisitors } from '../publishing/visitor-connections';
import type { Storage } from '../storage/types';

export interface ClusterEventDependencies {
  /** The collaboration layer, built after the cluster (it needs the cluster's fan-out step). */
  collab: () => Collab;
  access: DocumentAccess;
  storage: Storage;
  logger: Logger;
}

/**
 * The cluster's two callbacks on this instance (services.ts hands them to createCluster):
 * carrying out an event, and checking every connection again after a time out of reach.
 */
export function clusterEventHandlers(
  deps: ClusterEventDependencies,
): Required<Pick<ClusterOptions, 'handle' | 'onRejoined'>> {
  return {
    handle: (event) => carryOut(event, deps),
    onRejoined: () => checkConnectionsAgain(deps),
  };
}

/**
 * What this instance does about a decision made on any instance (fan-out.ts): close the
 * connections it concerns, or stop writing documents being deleted.
 */
async function carryOut(
  event: ClusterEvent,
  { collab, storage, logger }: ClusterEventDependencies,
): Promise<void> {
  switch (event.kind) {
    case 'sessions-ended': {
      const ended = new Set(event.sessionIds);
      collab().disconnect('forbidden', (context) => ended.has(context.sessionId));
      return;
    }
    case 'app-access': {
      // The app's document and its drafts' (docs/product/drafts.md): a draft is its app's people's.
      for (const name of collab().hocuspocus.documents.keys()) {
        const document = parseDocumentName(name);
        if (document?.kind !== 'app' && document?.kind !== 'draft') continue;
        if (document.appId !== event.appId) continue;
        collab().disconnect(
          event.reason,
          (context) => event.userId === null || context.userId === event.userId,
          name,
        );
      }
      return;
    }
    case 'space-access':
      collab().disconnect(
        event.reason,
        (context) => event.userId === null || context.userId === event.userId,
        documentName({ kind: 'space', spaceId: event.spaceId }),
      );
      return;
    case 'visitors-changed':
      await closeRefusedVisitors(event.appId, {
        storage,
        openDocuments: () => collab().hocuspocus.documents.keys(),
        close: (name) => collab().disconnect('forbidden', () => true, name),
        logger,
      });
      return;
    case 'deleting':
      await collab().closeForDeletion((name) => {
        const document = parseDocumentName(name);
        if (!document) return false;
        if ('spaceId' in event) {
          return document.kind === 'space' && document.spaceId === event.spaceId;
        }
        if ('appId' in event) {
          if (event.draftId !== undefined) {
            return (
              document.kind === 'draft' &&
              document.appId === event.appId &&
              document.draftId === event.draftId
            );
          }
          return document.kind !== 'user' && document.kind !== 'space'
            ? document.appId === event.appId
            : false;
        }
        return (
          (document.kind === 'user' || document.kind === 'data') && document.userId === event.userId
        );
      });
      return;
  }
}

/**
 * Every open connection checked against storage again (its session, its role): after this
 * instance could not hear the others, the decisions they made meanwhile are carried out here.
 */
async function checkConnectionsAgain({
  collab,
  access,
  logger,
}: ClusterEventDependencies): Promise<void> {
  let closed = 0;
  for (const document of [...collab().hocuspocus.documents.values()]) {
    const parsed = parseDocumentName(document.name);
    if (!parsed) continue;
    for (const connection of document.getConnections()) {
      const held = connection.context as ConnectionContext;
      let grant: Awaited<ReturnType<DocumentAccess['grantFor']>>;
      try {
        grant = await access.grantFor({ document: parsed, request: connection.request });
      } catch (error) {
        // Refused (the app was deleted meanwhile): it goes. Storage out of reach: it stays.
        if (!(error instanceof SyncRefusal)) throw error;
        grant = null;
      }
      if (grant && grant.role === held.role && grant.sessionId === held.sessionId) continue;
      connection.close({ code: 4403, reason: grant ? 'role_changed' : 'forbidden' });
      closed += 1;
    }
  }
  logger.info({ closed }, 'checked every open connection again after Redis came back');
}

import type { DocumentName } from '@pipit/protocol';
import type { SessionService } from '../accounts/sessions';
import { isSecureRequest, readSessionCookie } from '../accounts/session-cookie';
import { canSeePublished } from '../publishing/visibility';
import type { Storage } from '../storage/types';
import { SyncRefusal } from './refusal';

export type DocumentRole = 'owner' | 'editor' | 'viewer';

/** Who a connection is and what it may do with one document. */
export interface DocumentGrant {
  role: DocumentRole;
  userId: string;
  sessionId: string;
}

/**
 * Who may open which document (SPEC §8). The websocket is deny-by-default: a connection gets a
 * document only when the policy grants a role, and a viewer's connection is read-only on the server.
 * A policy may throw a SyncRefusal to say why (`not-found`: nobody created that app).
 */
export interface DocumentAccess {
  grantFor(args: { document: DocumentName; request: Request }): Promise<DocumentGrant | null>;
}

/**
 * The real policy: the session cookie names the person; `app/{id}` gives the owner and editors
 * write access and viewers read access; `user/{id}` is its person's alone; `data/{app}/{user}` is its
 * visitor's alone, for an app that exists and that they may see (publishing/visibility.ts).
 * Documents are created by `POST /api/apps`, never by the socket: a name nobody registered is
 * refused.
 */
export function createDocumentAccess(options: {
  storage: Storage;
  sessions: SessionService;
  publicOrigin: string | undefined;
  trustProxy: boolean;
}): DocumentAccess {
  const { storage, sessions } = options;
  return {
    async grantFor({ document, request }) {
      const secure = isSecureRequest(
        (name) => request.headers.get(name),
        options.publicOrigin,
        options.trustProxy,
      );
      const auth = await sessions.authenticate(
        readSessionCookie(request.headers.get('cookie'), secure),
      );
      if (!auth) return null;
      const who = { userId: auth.user.id, sessionId: auth.session.id };
      switch (document.kind) {
        case 'app': {
          const found = await storage.apps.getWithRole(document.appId, auth.user.id);
          if (!found) throw new SyncRefusal('not-found');
          return found.role ? { role: found.role, ...who } : null;
        }
        case 'user':
          return document.userId === auth.user.id ? { role: 'owner', ...who } : null;
        case 'data': {
          // A visitor's data is theirs alone: the app's creator is refused like anyone else.
          if (document.userId !== auth.user.id) return null;
          const found = await storage.apps.getWithRole(document.appId, auth.user.id);
          if (!found) throw new SyncRefusal('not-found');
          // Only for an app they may see: published public or unlisted, or one they work on.
          return canSeePublished(found.app, found.role) ? { role: 'owner', ...who } : null;
        }
      }
    },
  };
}

/** Refuses everything: for servers (and tests) that serve no documents. */
export const denyAllDocuments: DocumentAccess = {
  grantFor: () => Promise.resolve(null),
};

import type { DocumentName, SpaceRole } from '@pipit/protocol';
import type { SessionService } from '../accounts/sessions';
import { isSecureRequest, readSessionCookie } from '../accounts/session-cookie';
import { canSeePublished } from '../publishing/visibility';
import type { Storage } from '../storage/types';
import { Lru } from '../lru';
import { SyncRefusal } from './refusal';

export type DocumentRole = 'owner' | 'editor' | 'viewer';

/** Who a connection is and what it may do with one document. */
export interface DocumentGrant {
  role: DocumentRole;
  userId: string;
  sessionId: string;
}

/**
 * A shared space's roles on its document: its owner and members write, a reader's connection is
 * read-only (docs/product/spaces.md).
 */
const SPACE_DOCUMENT_ROLES: Record<SpaceRole, DocumentRole> = {
  owner: 'owner',
  member: 'editor',
  reader: 'viewer',
};

/**
 * Who may open which document (docs/product/roles.md). The websocket is deny-by-default: a
 * connection gets a document only when the policy grants a role, and a viewer's connection is
 * read-only on the server. A policy may throw a SyncRefusal to say why (`not-found`: nobody created
 * that app).
 */
export interface DocumentAccess {
  /** Who opens a sync socket with this request; null when nobody is signed in. */
  identify(request: Request): Promise<{ userId: string } | null>;
  grantFor(args: { document: DocumentName; request: Request }): Promise<DocumentGrant | null>;
  /**
   * An access decision is being carried out (a session ended, a person removed): whatever the
   * policy kept of sessions it read is read again (createAccessEpoch calls it).
   */
  forget?(): void;
}

/**
 * How long one read of a session serves the openings that follow it: a socket's upgrade and its
 * documents, a person's tabs opening at once, a restart's reconnect storm. Any access decision
 * carried out meanwhile (`forget`) ends it sooner; the role on each document is read every time.
 */
export const SESSION_REUSE_MS = 5_000;
/** Sessions kept for reuse at most (a cookie and its answer each: a few hundred bytes). */
const SESSIONS_KEPT = 20_000;

/**
 * The real policy: the session cookie names the person; `app/{id}` gives the owner and editors
 * write access and viewers read access, and so does an open draft of it, `draft/{id}/{draftId}`
 * (docs/product/drafts.md); `user/{id}` is its person's alone; `data/{app}/{user}` is
 * its visitor's alone, for an app that exists and that they may see (publishing/visibility.ts);
 * `space/{id}` is its members' (docs/product/spaces.md). Documents are created by `POST /api/apps`, never by the socket: a name nobody registered is
 * refused.
 */
export function createDocumentAccess(options: {
  storage: Storage;
  sessions: SessionService;
  publicOrigin: string | undefined;
  trustProxy: boolean;
  now?: () => number;
}): DocumentAccess {
  const { storage, sessions } = options;
  const now = options.now ?? Date.now;
  type Authenticated = ReturnType<SessionService['authenticate']>;
  /** Sessions read in the last SESSION_REUSE_MS, by cookie, since the last `forget`. */
  const kept = new Lru<string, { at: number; generation: number; read: Authenticated }>(
    SESSIONS_KEPT,
  );
  let generation = 0;
  const authenticate = (request: Request): Authenticated => {
    const secure = isSecureRequest(
      (name) => request.headers.get(name),
      options.publicOrigin,
      options.trustProxy,
    );
    const cookie = readSessionCookie(request.headers.get('cookie'), secure);
    if (!cookie) return sessions.authenticate(cookie);
    const found = kept.get(cookie);
    if (found && found.generation === generation && now() - found.at < SESSION_REUSE_MS) {
      return found.read;
    }
    const entry = { at: now(), generation, read: sessions.authenticate(cookie) };
    kept.set(cookie, entry);
    // A read that failed (storage down) is never kept: the next opening reads again.
    entry.read.catch(() => {
      if (kept.get(cookie) === entry) kept.delete(cookie);
    });
    return entry.read;
  };
  return {
    forget() {
      generation += 1;
    },
    async identify(request) {
      const auth = await authenticate(request);
      return auth ? { userId: auth.user.id } : null;
    },
    async grantFor({ document, request }) {
      const auth = await authenticate(request);
      if (!auth) return null;
      const role = await documentRoleFor(storage, document, auth.user.id);
      return role ? { role, userId: auth.user.id, sessionId: auth.session.id } : null;
    },
  };
}

/**
 * A signed-in person's role on one document, or null when they may not open it — the one rule
 * for the websocket (createDocumentAccess) and for what goes with a document outside it, the
 * photos and files on its records (http/record-files.ts). Throws a SyncRefusal when the app or
 * space has no row (`deleted`, or `not_found`: nobody created it).
 */
export async function documentRoleFor(
  storage: Storage,
  document: DocumentName,
  userId: string,
): Promise<DocumentRole | null> {
  /** Why an app's documents are refused when it has no row: deleted forever, or never made. */
  const missing = async (appId: string) =>
    new SyncRefusal((await storage.apps.wasDeleted(appId)) ? 'deleted' : 'not_found');
  switch (document.kind) {
    case 'app': {
      const found = await storage.apps.getWithRole(document.appId, userId);
      if (!found) throw await missing(document.appId);
      return found.role ?? null;
    }
    case 'draft': {
      // A draft is its app's editors' and viewers', as the app is, while it is open.
      const found = await storage.apps.getWithRole(document.appId, userId);
      if (!found) throw await missing(document.appId);
      if (!found.role) return null;
      const draft = await storage.drafts.get(document.appId, document.draftId);
      if (!draft) throw new SyncRefusal('not_found');
      if (draft.status !== 'open') throw new SyncRefusal('deleted');
      return found.role;
    }
    case 'user':
      return document.userId === userId ? 'owner' : null;
    case 'data': {
      // A visitor's data is theirs alone: the app's creator is refused like anyone else.
      if (document.userId !== userId) return null;
      const found = await storage.apps.getWithRole(document.appId, userId);
      if (!found) throw await missing(document.appId);
      // Only for an app they may see: published public or unlisted, or one they work on.
      return canSeePublished(found.app, found.role) ? 'owner' : null;
    }
    case 'space': {
      // Only membership counts: the app's creator is refused like anyone else.
      const found = await storage.spaces.getWithRole(document.spaceId, userId);
      if (!found) {
        const deleted = await storage.spaces.wasDeleted(document.spaceId);
        throw new SyncRefusal(deleted ? 'deleted' : 'not_found');
      }
      return found.role ? SPACE_DOCUMENT_ROLES[found.role] : null;
    }
  }
}

/** Refuses everything: for servers (and tests) that serve no documents. */
export const denyAllDocuments: DocumentAccess = {
  identify: () => Promise.resolve(null),
  grantFor: () => Promise.resolve(null),
};

import type { DocumentAccess, DocumentRole } from '../../src/collab/access';

/**
 * An access policy granting one role on every well-formed document, for tests of the socket and
 * persistence that are not about accounts (the real policy has its own tests). Each socket is a
 * person of its own (named by its handshake key), so per-person bounds do not join test clients.
 */
export function grantEveryone(role: DocumentRole): DocumentAccess {
  const personOf = (request: Request) => `anyone-${request.headers.get('sec-websocket-key')}`;
  return {
    identify: (request) => Promise.resolve({ userId: personOf(request) }),
    grantFor: ({ request }) =>
      Promise.resolve({ role, userId: personOf(request), sessionId: 'any-session' }),
  };
}

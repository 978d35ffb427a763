import type { DocumentAccess, DocumentRole } from '../../src/collab/access';

/** The header a test provider names its person with (support/provider.ts), for `grantEveryone`. */
export const TEST_PERSON_HEADER = 'x-pipit-test-person';

/**
 * An access policy granting one role on every well-formed document, for tests of the socket and
 * persistence that are not about accounts (the real policy has its own tests). Each test provider
 * is a person of its own, the same over its reconnections (as a signed-in person is: a document's
 * client ids are theirs, collab/client-owners.ts); any other socket is a person of its own (named
 * by its handshake key). So per-person bounds do not join test clients.
 */
export function grantEveryone(role: DocumentRole): DocumentAccess {
  const personOf = (request: Request) =>
    request.headers.get(TEST_PERSON_HEADER) ?? `anyone-${request.headers.get('sec-websocket-key')}`;
  return {
    identify: (request) => Promise.resolve({ userId: personOf(request) }),
    grantFor: ({ request }) =>
      Promise.resolve({ role, userId: personOf(request), sessionId: 'any-session' }),
  };
}

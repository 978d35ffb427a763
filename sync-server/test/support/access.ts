import type { DocumentAccess, DocumentRole } from '../../src/collab/access';

/**
 * An access policy granting one role on every well-formed document, for tests of the socket and
 * persistence that are not about accounts (the real policy has its own tests).
 */
export function grantEveryone(role: DocumentRole): DocumentAccess {
  return { grantFor: () => Promise.resolve({ role, userId: 'anyone', sessionId: 'any-session' }) };
}

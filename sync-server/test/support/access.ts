import type { DocumentAccess, DocumentRole } from '../../src/collab/access';

/** An access policy granting one role on every well-formed document (accounts come later). */
export function grantEveryone(role: DocumentRole): DocumentAccess {
  return { roleFor: () => Promise.resolve(role) };
}

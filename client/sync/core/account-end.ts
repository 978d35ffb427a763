/**
 * Signing out (or in as someone else) ends an account's syncing in this tab. The session cannot
 * import the sync layer to say so: every page loads the session, and a visitor who never signs in
 * never downloads the sync layer. So the sync layer, once something loads it, registers here what
 * to close, and the session calls endAccount.
 */
type Handler = (accountId: string) => void;

const handlers = new Set<Handler>();

/** Runs `handler` whenever an account stops being the one signed in on this tab. */
export function onAccountEnd(handler: Handler): void {
  handlers.add(handler);
}

export function endAccount(accountId: string): void {
  handlers.forEach((handler) => handler(accountId));
}

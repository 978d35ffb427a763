import { useEffect, useState, useSyncExternalStore } from 'react';
import {
  ACCOUNT_STORAGE_KEY,
  returnPath,
  type Account,
  ANONYMOUS_VIEWER,
  answerParser,
  readAccount,
  readSessionResponse,
} from '@pipit/protocol';
import { endAccount } from '../../sync/core/account-end';
import { firstScreenKeeping } from '../../sync/device/first-screen-shown';
import { forgetPrivateCopies } from '../../sync/device/published-cache';
import { apiGet, OfflineError } from '../api/request';

/**
 * Who is signed in on this device. Asked of the server once per page load (and after signing in
 * or out); the answer is also kept on the device, so pages know who you are while offline. When
 * the server could not be asked (offline, or it failed), the person last seen here stands in, but
 * that copy is never kept as the answer: the next call asks again, and so does coming back online
 * or to the page (a failure is never cached; an installed app may not reload for days).
 */
interface SessionState {
  status: 'loading' | 'ready';
  account: Account | null;
  /** The server could not be asked: `account` is the one last seen on this device. */
  isOfflineCopy: boolean;
}

const STORAGE_KEY = ACCOUNT_STORAGE_KEY;
let state: SessionState = { status: 'loading', account: readCached(), isOfflineCopy: false };
const listeners = new Set<() => void>();
let loading: Promise<SessionState> | undefined;
/**
 * Counts the answers set outside `loadSession` (signing in or out, editing the account): a
 * request asked before one of them answers with an older view, and is not applied.
 */
let generation = 0;

function readCached(): Account | null {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    // Nobody has signed in on this device: nothing to check. Every page reads this as its code
    // starts; building the account's schema to check nothing cost a phone ~40 ms (docs/performance.md).
    if (stored === null) return null;
    return readAccount(JSON.parse(stored));
  } catch {
    return null;
  }
}

function set(next: SessionState) {
  const previous = state.account?.id;
  // Signed out, or in as someone else: the previous account's documents stop syncing here.
  if (previous && previous !== next.account?.id) {
    endAccount(previous);
    void forgetPrivateCopies(previous);
  }
  // The app screens kept on this device for whoever was here before go (sync/device/first-screen.ts):
  // an account's hold its data; an anonymous visitor's data goes into the account they sign in to.
  const before = previous ?? ANONYMOUS_VIEWER;
  if (before !== (next.account?.id ?? ANONYMOUS_VIEWER)) {
    void firstScreenKeeping()
      .then(({ forgetFirstScreens }) => forgetFirstScreens(before))
      .catch((error: unknown) =>
        console.warn('Could not forget the app screens kept here:', error),
      );
  }
  state = next;
  try {
    if (next.account) localStorage.setItem(STORAGE_KEY, JSON.stringify(next.account));
    else localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage unavailable: the session still works for this page.
  }
  listeners.forEach((l) => l());
}

/**
 * Asks the server who is signed in: once, unless `force`, while it answers. When it cannot be
 * asked, the copy last seen on this device is the state meanwhile (what is on screen stays), and
 * the next call asks again.
 */
export function loadSession(force = false): Promise<SessionState> {
  if (loading && !force) return loading;
  const asked = generation;
  const request: Promise<SessionState> = apiGet(
    '/api/auth/session',
    answerParser(readSessionResponse),
  ).then(
    ({ account }) => {
      // Signed in or out meanwhile: that answer is newer than this one.
      if (asked === generation) set({ status: 'ready', account, isOfflineCopy: false });
      return state;
    },
    (error: unknown) => {
      // Offline (or the server is down): carry on as the person last seen here.
      if (!(error instanceof OfflineError)) console.warn('Could not check the session:', error);
      if (asked === generation) {
        const account = readCached();
        // Nothing changed (asked again, still offline): the screen is not redrawn.
        if (state.status !== 'ready' || !state.isOfflineCopy || state.account?.id !== account?.id) {
          set({ status: 'ready', account, isOfflineCopy: true });
        }
      }
      // Not the answer: the next call asks the server again.
      if (loading === request) loading = undefined;
      return state;
    },
  );
  loading = request;
  return request;
}

/** The server's answer is due again: while the state is only the copy last seen on this device. */
function askAgainIfOfflineCopy(): void {
  if (state.isOfflineCopy) void loadSession();
}

/**
 * Signed in with an email not confirmed yet: the link is usually opened in another tab
 * or on another device, and this tab's banner and publish panel should learn of it without a
 * reload. Such a tab asks the server again when it is shown or focused again, or when another tab
 * of this site stores a new view of the account; one question at a time.
 */
function waitingForConfirmation(): boolean {
  return state.status === 'ready' && !state.isOfflineCopy && state.account?.emailVerified === false;
}
let confirming: Promise<unknown> | undefined;
function askAgainIfWaitingForConfirmation(): void {
  if (confirming || !waitingForConfirmation()) return;
  confirming = loadSession(true).finally(() => (confirming = undefined));
}

/** The page is back in front of the person: the answers that may have changed meanwhile. */
function askAgainOnReturn(): void {
  askAgainIfOfflineCopy();
  askAgainIfWaitingForConfirmation();
}

/** After `online`, the network is often not usable for a moment. */
const ONLINE_SETTLE_MS = 1_500;

if (typeof window !== 'undefined' && typeof window.addEventListener === 'function') {
  let settle: ReturnType<typeof setTimeout> | undefined;
  window.addEventListener('online', () => {
    clearTimeout(settle);
    settle = setTimeout(askAgainIfOfflineCopy, ONLINE_SETTLE_MS);
  });
  window.addEventListener('focus', askAgainIfWaitingForConfirmation);
  // Another tab stored its view of the account (it confirmed the email, say): ask the server,
  // rather than trust what another tab wrote.
  window.addEventListener('storage', (event) => {
    if ((event as StorageEvent).key === STORAGE_KEY) askAgainIfWaitingForConfirmation();
  });
}
if (typeof document !== 'undefined' && typeof document.addEventListener === 'function') {
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') askAgainOnReturn();
  });
}

/** After signing in, verifying or editing: the server's latest view of the account. */
export function setAccount(account: Account | null): void {
  generation += 1;
  loading = Promise.resolve({ status: 'ready', account, isOfflineCopy: false });
  set({ status: 'ready', account, isOfflineCopy: false });
}

/** The account signed in now, outside React. */
export function getAccount(): Account | null {
  return state.account;
}

/** Who is asking, as the server names them: the account signed in (offline: last seen), or anonymous. */
export const currentViewer = (): string => state.account?.id ?? ANONYMOUS_VIEWER;

export function useSession(): SessionState {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => state,
    () => state,
  );
}

/**
 * How long a page that must know who is signed in before it shows anything of theirs waits for
 * the server when nobody was seen on this device (a slow or flaky connection; offline answers at
 * once): past it, it goes on as nobody, and follows the answer when it comes.
 */
const ANSWER_WAIT_MS = 1_500;

/**
 * Whether who is signed in is settled enough to open their things: the server has answered, or
 * someone was seen on this device (they stand in meanwhile, and are almost always who answers),
 * or the device is offline, or the wait ran out. Until then, nobody seen here might still be
 * someone signed in: opening an anonymous visitor's data first would drop what they start typing
 * when the answer switches to theirs.
 */
export function useSessionSettled(): boolean {
  const session = useSession();
  const [waited, setWaited] = useState(false);
  const settled =
    session.status === 'ready' ||
    session.account !== null ||
    // Offline: nobody can answer, and the person seen here (nobody) goes on at once.
    (typeof navigator !== 'undefined' && navigator.onLine === false) ||
    waited;
  useEffect(() => {
    if (settled) return;
    void loadSession();
    const timer = setTimeout(() => setWaited(true), ANSWER_WAIT_MS);
    return () => clearTimeout(timer);
  }, [settled]);
  return settled;
}

/** Only same-site paths are followed after signing in (never another site); home otherwise. */
export function safeRedirect(target: string | undefined): string {
  return returnPath(target) ?? '/home';
}

import { useSyncExternalStore } from 'react';
import {
  type Account,
  accountSchema,
  ANONYMOUS_VIEWER,
  sessionResponseSchema,
} from '@pipit/protocol';
import { endAccount } from '../../sync/account-end';
import { forgetPrivateCopies } from '../../sync/published-cache';
import { apiGet, OfflineError } from '../api/request';

/**
 * Who is signed in on this device. Asked of the server once per page load (and after signing in
 * or out); the answer is also kept on the device, so pages know who you are while offline.
 */
interface SessionState {
  status: 'loading' | 'ready';
  account: Account | null;
  /** The server could not be asked: `account` is the one last seen on this device. */
  isOfflineCopy: boolean;
}

const STORAGE_KEY = 'pipit:account';
let state: SessionState = { status: 'loading', account: readCached(), isOfflineCopy: false };
const listeners = new Set<() => void>();
let loading: Promise<SessionState> | undefined;

function readCached(): Account | null {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    // Nobody has signed in on this device: nothing to check. Every page reads this as its code
    // starts; building the account's schema to check nothing cost a phone ~40 ms (issue 18).
    if (stored === null) return null;
    const parsed = accountSchema.safeParse(JSON.parse(stored));
    return parsed.success ? parsed.data : null;
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
  state = next;
  try {
    if (next.account) localStorage.setItem(STORAGE_KEY, JSON.stringify(next.account));
    else localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage unavailable: the session still works for this page.
  }
  listeners.forEach((l) => l());
}

/** Asks the server who is signed in (once, unless `force`). */
export function loadSession(force = false): Promise<SessionState> {
  if (loading && !force) return loading;
  loading = apiGet('/api/auth/session', sessionResponseSchema).then(
    ({ account }) => {
      set({ status: 'ready', account, isOfflineCopy: false });
      return state;
    },
    (error: unknown) => {
      // Offline (or the server is down): carry on as the person last seen here.
      if (!(error instanceof OfflineError)) console.warn('Could not check the session:', error);
      set({ status: 'ready', account: readCached(), isOfflineCopy: true });
      return state;
    },
  );
  return loading;
}

/** After signing in, verifying or editing: the server's latest view of the account. */
export function setAccount(account: Account | null): void {
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

/** Only same-site paths are followed after signing in (never another site). */
export function safeRedirect(target: string | undefined): string {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) {
    return '/home';
  }
  return target;
}

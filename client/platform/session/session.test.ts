import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Account } from '@pipit/protocol';
import { fakeBrowser } from '../../test-support/fake-browser';

/*
 * Who is signed in, when the server could not be asked (found by a review): the copy last seen on
 * this device stands in, but a failure is never kept as the answer. The next call asks again, and
 * so does coming back online or to the page; what is on screen stays meanwhile.
 */

const ada: Account = {
  id: 'a'.repeat(26),
  username: 'ada',
  email: 'ada@example.org',
  emailVerified: false,
  pendingEmail: null,
  displayName: 'Ada',
  bio: '',
  avatar: { kind: 'emoji', emoji: '🐦', color: '#336699' },
  links: [],
  pinnedAppIds: [],
  createdAt: '2026-01-01T00:00:00.000Z',
};

type Answer = 'offline' | 'failing' | { account: Account | null } | Promise<Response>;

/** The server as the test wants it; `asked` counts the session requests. */
let answer: Answer;
let asked: number;
let page: EventTarget & { visibilityState: 'visible' | 'hidden' };

function respond(current: Answer): Promise<Response> {
  if (current === 'offline') return Promise.reject(new TypeError('Failed to fetch'));
  if (current === 'failing') {
    return Promise.resolve(
      new Response('{"error":{"code":"internal","message":"blip"}}', { status: 503 }),
    );
  }
  if (current instanceof Promise) return current;
  return Promise.resolve(
    new Response(JSON.stringify(current), {
      status: 200,
      headers: { 'Content-Type': 'application/json' },
    }),
  );
}

/** A fresh page: its own window, storage and session module. */
async function openPage(cached: Account | null = null) {
  fakeBrowser({ online: true });
  page = Object.assign(new EventTarget(), {
    visibilityState: 'visible' as const,
    getElementById: () => null,
  });
  vi.stubGlobal('document', page);
  if (cached) localStorage.setItem('pipit:account', JSON.stringify(cached));
  vi.stubGlobal('fetch', (input: RequestInfo | URL) => {
    if (String(input) === '/api/auth/session') asked += 1;
    return respond(answer);
  });
  vi.resetModules();
  return import('./session');
}

beforeEach(() => {
  asked = 0;
  // The failures this file makes on purpose are warned about.
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** A promise for an answer sent later. */
function later() {
  let send!: (response: Response) => void;
  const response = new Promise<Response>((resolve) => (send = resolve));
  const json = (body: unknown) =>
    new Response(JSON.stringify(body), {
      status: 200,
      headers: { 'Content-Type': 'application/json' },
    });
  return { response, send: (body: unknown) => send(json(body)) };
}

describe('the session when the server could not be asked', () => {
  it('asks again on the next call once the server answers, then keeps that answer', async () => {
    answer = 'failing';
    const { loadSession } = await openPage();
    expect(await loadSession()).toMatchObject({ isOfflineCopy: true, account: null });
    expect(asked).toBe(1);

    answer = { account: ada };
    expect(await loadSession()).toMatchObject({
      status: 'ready',
      isOfflineCopy: false,
      account: { username: 'ada' },
    });
    expect(asked).toBe(2);
    // The server's answer is kept: no request per page.
    await loadSession();
    await loadSession();
    expect(asked).toBe(2);
  });

  it('keeps the person last seen on screen while it asks, and while still offline', async () => {
    answer = 'offline';
    const { loadSession, getAccount } = await openPage(ada);
    expect(await loadSession()).toMatchObject({ isOfflineCopy: true, account: { id: ada.id } });

    // Still offline: asked again, the same copy stands in.
    expect(await loadSession()).toMatchObject({ isOfflineCopy: true, account: { id: ada.id } });
    expect(asked).toBe(2);

    // Back: while the answer is on its way, the copy is what the page shows.
    const pending = later();
    answer = pending.response;
    const asking = loadSession();
    const alongside = loadSession();
    expect(getAccount()?.id).toBe(ada.id);
    expect(asked).toBe(3);
    // Her session ended elsewhere meanwhile: the server says nobody.
    pending.send({ account: null });
    expect(await asking).toMatchObject({ isOfflineCopy: false, account: null });
    expect(await alongside).toMatchObject({ isOfflineCopy: false, account: null });
    expect(getAccount()).toBeNull();
  });

  it('asks again by itself when the browser comes back online', async () => {
    answer = 'offline';
    const { loadSession, getAccount } = await openPage(ada);
    await loadSession();
    expect(asked).toBe(1);

    answer = { account: { ...ada, displayName: 'Ada L.' } };
    window.dispatchEvent(new Event('online'));
    await vi.waitFor(() => expect(getAccount()?.displayName).toBe('Ada L.'), { timeout: 3_500 });
    expect(asked).toBe(2);
    expect(await loadSession()).toMatchObject({ isOfflineCopy: false });
    expect(asked).toBe(2);
  });

  it('asks again by itself when the page is shown again (a 5xx start, never offline)', async () => {
    answer = 'failing';
    const { loadSession, getAccount } = await openPage();
    await loadSession();

    // A confirmed account: an unconfirmed one is asked about again (below).
    answer = { account: { ...ada, emailVerified: true } };
    page.visibilityState = 'visible';
    page.dispatchEvent(new Event('visibilitychange'));
    await vi.waitFor(() => expect(getAccount()?.id).toBe(ada.id));
    expect(asked).toBe(2);

    // Once answered, coming back to the page asks nothing more.
    page.dispatchEvent(new Event('visibilitychange'));
    window.dispatchEvent(new Event('online'));
    // A fixed wait on purpose: past the 1.5 s an `online` waits, nothing more is asked.
    await new Promise((resolve) => setTimeout(resolve, 1_700));
    expect(asked).toBe(2);
  });

  it('never lets an answer asked before signing in undo it', async () => {
    answer = 'offline';
    const { loadSession, setAccount, getAccount } = await openPage();
    await loadSession();

    const pending = later();
    answer = pending.response;
    const asking = loadSession();
    // The person signs in meanwhile; then the older answer arrives.
    setAccount(ada);
    pending.send({ account: null });
    expect(await asking).toMatchObject({ account: { id: ada.id }, isOfflineCopy: false });
    expect(getAccount()?.id).toBe(ada.id);
  });
});

describe('an email confirmed in another tab', () => {
  it('is learnt when the page is shown or focused again, or another tab stores the account', async () => {
    answer = { account: ada };
    const { loadSession, getAccount } = await openPage();
    await loadSession();
    expect(asked).toBe(1);

    // Confirmed elsewhere; this tab is shown again.
    answer = { account: { ...ada, emailVerified: true } };
    page.dispatchEvent(new Event('visibilitychange'));
    await vi.waitFor(() => expect(getAccount()?.emailVerified).toBe(true));
    expect(asked).toBe(2);

    // Confirmed: nothing more to learn on coming back.
    page.dispatchEvent(new Event('visibilitychange'));
    window.dispatchEvent(new Event('focus'));
    expect(asked).toBe(2);
  });

  it('asks once per return, on focus and on another tab’s stored account', async () => {
    answer = { account: ada };
    const { loadSession, getAccount } = await openPage();
    await loadSession();

    const pending = later();
    answer = pending.response;
    window.dispatchEvent(new Event('focus'));
    page.dispatchEvent(new Event('visibilitychange'));
    // One question at a time.
    expect(asked).toBe(2);
    pending.send({ account: ada });
    await vi.waitFor(() => expect(asked).toBe(2));

    answer = { account: { ...ada, emailVerified: true } };
    const stored = Object.assign(new Event('storage'), { key: 'pipit:account' });
    await vi.waitFor(async () => {
      window.dispatchEvent(stored);
      await Promise.resolve();
      expect(getAccount()?.emailVerified).toBe(true);
    });
  });
});

import type { Browser, BrowserContext } from 'playwright-core';
import { ApiClient, type RunningPipit } from '@pipit/sync-server/testing';

/** The password every test person signs up with. */
export const PERSON_PASSWORD = 'a long and unusual passphrase';

export interface Person {
  username: string;
  id: string;
  /** Signed in over the API (cookie jar), for set-up steps a test is not about. */
  api: ApiClient;
}

/**
 * Signs a person up through the real API (human check solved), email confirmed, so browser tests
 * about editing start signed in rather than repeating the sign-up flow e2e/accounts.test.ts covers.
 */
export async function signUp(pipit: RunningPipit, username: string): Promise<Person> {
  const api = new ApiClient(pipit.url);
  const response = await api.post<{ account: { id: string } }>(
    '/api/auth/signup',
    { username, email: `${username}@example.org`, password: PERSON_PASSWORD },
    true,
  );
  if (response.status !== 201) throw new Error(`sign-up failed: ${JSON.stringify(response.body)}`);
  const id = response.body.account.id;
  await pipit.server.storage.users.update(id, { emailVerifiedAt: Date.now() });
  return { username, id, api };
}

/** A browser context (a device) where `person` is signed in with their session cookie. */
export async function deviceOf(
  browser: Browser,
  pipit: RunningPipit,
  person: Person,
  options: Parameters<Browser['newContext']>[0] = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({ serviceWorkers: 'block', ...options });
  await signInContext(context, pipit, person);
  return context;
}

/** Puts the person's session cookie into a context (a second device signs in the same way). */
export async function signInContext(
  context: BrowserContext,
  pipit: RunningPipit,
  person: Person,
): Promise<void> {
  const fresh = new ApiClient(pipit.url);
  const login = await fresh.request('POST', '/api/auth/login', {
    body: { login: person.username, password: PERSON_PASSWORD },
    humanCheck: true,
  });
  if (login.status !== 200) throw new Error('sign-in failed');
  const { name, value } = sessionCookieOf(fresh);
  // With an expiry, as the server sets it: the cookie outlives a browser restart.
  const expires = Math.floor(Date.now() / 1000) + 24 * 60 * 60;
  await context.addCookies([
    { name, value, url: pipit.url, httpOnly: true, sameSite: 'Lax', expires },
  ]);
}

/** The session cookie an API client holds, as a browser context takes it. */
export function sessionCookieOf(api: ApiClient): { name: string; value: string } {
  if (!api.cookie) throw new Error('This client is not signed in.');
  const [name = '', value = ''] = api.cookie.split('=');
  return { name, value };
}

import { redirect } from '@tanstack/react-router';
import type { Account } from '@pipit/protocol';
import { loadSession } from './session';

/**
 * Route guards on the session, apart from it: the session is also used by the installed app's
 * page, which has no router.
 */

/**
 * For `beforeLoad` of pages that belong to a signed-in person: anyone else is sent to sign in,
 * and brought back here afterwards.
 */
export async function requireAccount(href: string): Promise<Account> {
  const { account } = await loadSession();
  if (!account) throw redirect({ to: '/login', search: { redirect: href } });
  return account;
}

/** For sign-in and sign-up: someone already signed in goes home instead. */
export async function redirectIfSignedIn(): Promise<void> {
  const { account } = await loadSession();
  if (account) throw redirect({ to: '/home' });
}

import { redirect, useNavigate } from '@tanstack/react-router';
import { appShellTarget, type Account } from '@pipit/protocol';
import { useCallback } from 'react';
import { loadSession, safeRedirect } from './session';

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

/** The path part of an href (`/join/abc?x#y` → `/join/abc`). */
export const pathnameOf = (href: string): string => href.split(/[?#]/, 1)[0] ?? href;

/** An installed app's page has its own entry: the browser loads it, not the site's router. */
const isInstalledAppPage = (href: string) => appShellTarget(pathnameOf(href)) !== null;

/**
 * For sign-in and sign-up: someone already signed in goes where they were going (an invitation),
 * or home.
 */
export async function redirectIfSignedIn(returnTo?: string): Promise<void> {
  const { account } = await loadSession();
  if (!account) return;
  const target = safeRedirect(returnTo);
  if (isInstalledAppPage(target)) {
    window.location.replace(target);
    return new Promise(() => {});
  }
  throw redirect({ href: target });
}

/**
 * Takes a person back to where they were going after signing in or up (docs/product/accounts.md):
 * a path on this site, or home. An installed app's page loads as its own document.
 */
export function useGoBack(): (target: string | undefined) => Promise<void> {
  const navigate = useNavigate();
  return useCallback(
    async (target) => {
      const path = safeRedirect(target);
      if (isInstalledAppPage(path)) {
        window.location.assign(path);
        return;
      }
      await navigate({ href: path });
    },
    [navigate],
  );
}

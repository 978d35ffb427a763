import { Link, useRouterState } from '@tanstack/react-router';
import { type ReactNode, useId, useState } from 'react';
import { Button } from '../../ui/button';
import { ButtonLink } from '../../ui/button-link';
import { Notice } from '../../ui/notice';
import { Segmented } from '../../ui/segmented';
import { useOnlineStatus } from '../../ui/use-online-status';
import { useSession } from '../../platform/session/session';
import { pathnameOf } from '../../platform/session/route-guards';
import { useResendVerification } from '../../platform/session/resend-verification';
import { AccountMenu } from './account-menu';
import { THEME_OPTIONS, useThemePreference } from '../../platform/theme-preference';
import './site-layout.css';

const SIGNED_OUT_LINKS = [
  { to: '/explore', label: 'Explore' },
  { to: '/docs/platform', label: 'Docs' },
  { to: '/pricing', label: 'Pricing' },
] as const;

const SIGNED_IN_LINKS = [
  { to: '/home', label: 'Home' },
  { to: '/studio', label: 'Studio' },
  { to: '/apps', label: 'Library' },
  { to: '/explore', label: 'Explore' },
] as const;

function NavList({ onNavigate, signedIn }: { onNavigate?: () => void; signedIn: boolean }) {
  return (
    <ul className="site-nav__list">
      {(signedIn ? SIGNED_IN_LINKS : SIGNED_OUT_LINKS).map((link) => (
        <li key={link.to}>
          <Link
            to={link.to}
            className="site-nav__link"
            activeProps={{ 'aria-current': 'page' }}
            // The library is /apps itself; an app's pages (/apps/{id}/…) are not the library.
            activeOptions={{ exact: link.to === '/apps' }}
            onClick={onNavigate}
          >
            {link.label}
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** Pages that are not a place to come back to after signing in or up. */
const NO_RETURN = new Set([
  '/',
  '/login',
  '/signup',
  '/forgot-password',
  '/reset-password',
  '/verify-email',
  '/confirm-email-change',
  // Signing up from the demo keeps its draft and opens it in the editor instead.
  '/demo',
]);

/** Sign in and up from the header bring the person back to the page they were reading. */
function AccountLinks() {
  const href = useRouterState({ select: (s) => s.location.href });
  const pathname = pathnameOf(href);
  const search = { redirect: NO_RETURN.has(pathname) ? undefined : href };
  return (
    <>
      <ButtonLink to="/login" search={search} variant="ghost" size="small">
        Sign in
      </ButtonLink>
      <ButtonLink to="/signup" search={search} variant="primary" size="small">
        Sign up
      </ButtonLink>
    </>
  );
}

function SiteHeader() {
  const { account } = useSession();
  const menuId = useId();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  // The menu belongs to the page it was opened on: navigating anywhere closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const setOpen = (next: boolean) => setOpenOn(next ? pathname : null);

  return (
    <header className="site-header">
      <div className="container site-header__bar">
        <Link to="/" className="site-logo">
          <img src="/icons/pipit-192.png" alt="" width="32" height="32" />
          Pipit
        </Link>
        <nav className="site-nav" aria-label="Main">
          <NavList signedIn={account !== null} />
        </nav>
        <div className="site-header__account">
          {account ? <AccountMenu account={account} /> : <AccountLinks />}
        </div>
        <Button
          variant="secondary"
          size="small"
          className="site-menu-button"
          aria-expanded={open}
          aria-controls={menuId}
          onClick={() => setOpen(!open)}
        >
          Menu
        </Button>
      </div>
      <div className="container site-menu" id={menuId} hidden={!open}>
        <nav aria-label="Main (menu)">
          <NavList onNavigate={() => setOpen(false)} signedIn={account !== null} />
        </nav>
        <div className="site-menu__account">
          {account ? <AccountMenu account={account} inline /> : <AccountLinks />}
        </div>
      </div>
    </header>
  );
}

const FOOTER_GROUPS = [
  {
    title: 'Pipit',
    links: [
      { to: '/about', label: 'About' },
      { to: '/pricing', label: 'Pricing' },
      { to: '/faq', label: 'FAQ' },
      { to: '/explore', label: 'Explore apps' },
      { to: '/demo', label: 'Try the editor' },
      { to: '/demo1', label: 'Showcase app' },
    ],
  },
  {
    title: 'Documentation',
    links: [
      { to: '/docs/platform', label: 'The platform' },
      { to: '/docs/themes', label: 'Themes' },
      { to: '/docs/ai-actions', label: 'AI actions' },
    ],
  },
  {
    title: 'Talk to us',
    links: [
      { to: '/contact', label: 'Contact' },
      { to: '/feedback', label: 'Send feedback' },
    ],
  },
  {
    title: 'Legal',
    links: [
      { to: '/legal/terms', label: 'Terms of use' },
      { to: '/legal/privacy', label: 'Privacy' },
      { to: '/legal/policy', label: 'Acceptable use & AI' },
    ],
  },
] as const;

function SiteFooter() {
  const [theme, setTheme] = useThemePreference();
  return (
    <footer className="site-footer">
      <div className="container">
        <nav className="site-footer__grid" aria-label="Footer">
          {FOOTER_GROUPS.map((group) => (
            <div key={group.title}>
              <h2 className="site-footer__heading">{group.title}</h2>
              <ul>
                {group.links.map((link) => (
                  <li key={link.to}>
                    <Link to={link.to}>{link.label}</Link>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
        <div className="site-footer__bottom">
          <p>Pipit — small apps that work offline and stay yours.</p>
          <Segmented
            label="Colour theme"
            options={THEME_OPTIONS}
            value={theme}
            onChange={setTheme}
          />
        </div>
      </div>
    </footer>
  );
}

/**
 * Until the address is confirmed, a reminder with a way to get the link again. It goes away by
 * itself once the address is confirmed in another tab (the session is asked again on return).
 */
function VerifyEmailBanner() {
  const { account, isOfflineCopy } = useSession();
  const resend = useResendVerification();
  if (!account || account.emailVerified || isOfflineCopy) return null;
  return (
    <div className="container site-verify">
      <Notice tone="warning" title="Confirm your email address">
        <p>
          We sent a link to <strong>{account.email}</strong>. Confirming it lets you publish your
          apps, invite people, and reset your password if you ever forget it.{' '}
          {resend.sent ? (
            <span>A new link is on its way.</span>
          ) : (
            <Button
              size="small"
              variant="secondary"
              disabled={resend.pending}
              onClick={resend.send}
            >
              {resend.pending ? 'Sending…' : 'Send the link again'}
            </Button>
          )}
        </p>
        {resend.error ? <p role="alert">{resend.error}</p> : null}
      </Notice>
    </div>
  );
}

function OfflineBanner() {
  const online = useOnlineStatus();
  if (online) return null;
  return (
    <div className="container site-offline">
      <Notice tone="offline" title="You’re offline">
        Pages you have opened before still work. Anything you change stays on this device and syncs
        when you are back online.
      </Notice>
    </div>
  );
}

/** The shared frame of every page but the installed app: header, offline banner, main, footer. */
export function SiteLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <SiteHeader />
      <OfflineBanner />
      <VerifyEmailBanner />
      <main className="site-main" id="main" tabIndex={-1}>
        {children}
      </main>
      <SiteFooter />
    </>
  );
}

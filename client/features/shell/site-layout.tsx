import { Link, useRouterState } from '@tanstack/react-router';
import { type ReactNode, useId, useState } from 'react';
import { Button, ButtonLink } from '../../ui/button';
import { Notice } from '../../ui/notice';
import { Segmented } from '../../ui/segmented';
import { useOnlineStatus } from '../../ui/use-online-status';
import { THEME_OPTIONS, useThemePreference } from './theme-preference';
import './site-layout.css';

const MAIN_LINKS = [
  { to: '/explore', label: 'Explore' },
  { to: '/studio', label: 'Studio' },
  { to: '/docs/platform', label: 'Docs' },
  { to: '/pricing', label: 'Pricing' },
] as const;

function NavList({ onNavigate }: { onNavigate?: () => void }) {
  return (
    <ul className="site-nav__list">
      {MAIN_LINKS.map((link) => (
        <li key={link.to}>
          <Link
            to={link.to}
            className="site-nav__link"
            activeProps={{ 'aria-current': 'page' }}
            onClick={onNavigate}
          >
            {link.label}
          </Link>
        </li>
      ))}
    </ul>
  );
}

function AccountLinks() {
  return (
    <>
      <ButtonLink to="/login" variant="ghost" size="small">
        Sign in
      </ButtonLink>
      <ButtonLink to="/signup" variant="primary" size="small">
        Sign up
      </ButtonLink>
    </>
  );
}

function SiteHeader() {
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
          <NavList />
        </nav>
        <div className="site-header__account">
          <AccountLinks />
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
          <NavList onNavigate={() => setOpen(false)} />
        </nav>
        <div className="site-menu__account">
          <AccountLinks />
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
      <main className="site-main" id="main" tabIndex={-1}>
        {children}
      </main>
      <SiteFooter />
    </>
  );
}

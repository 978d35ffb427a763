import { Link, useNavigate, useRouterState } from '@tanstack/react-router';
import { type Account, sessionResponseSchema } from '@pipit/protocol';
import { useEffect, useId, useRef, useState } from 'react';
import { partial } from 'zod/mini';
import { Avatar } from '../../ui/avatar';
import { apiSend } from '../../platform/api/request';
import { setAccount } from '../../platform/session/session';

/** Signs out on the server, then everywhere in this tab. */
async function signOut(): Promise<void> {
  await apiSend('POST', '/api/auth/logout', undefined, partial(sessionResponseSchema)).catch(
    () => {},
  );
  setAccount(null);
}

/**
 * The signed-in person's menu: their profile, settings, signing out. Escape or a click away closes
 * it; Escape gives focus back to its button. In the header bar it floats under its button, anchored
 * to the button's right edge; inside the phone menu (`inline`) it opens in the flow, as wide as the
 * menu, so it never reaches past the screen's left edge.
 */
export function AccountMenu({ account, inline = false }: { account: Account; inline?: boolean }) {
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const navigate = useNavigate();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  // The menu belongs to the page it was opened on: navigating anywhere closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const setOpen = (value: boolean) => setOpenOn(value ? pathname : null);

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpenOn(null);
      button.current?.focus();
    };
    const onClick = (e: MouseEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpenOn(null);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('click', onClick);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('click', onClick);
    };
  }, [open]);

  return (
    <div className={inline ? 'account-menu account-menu--inline' : 'account-menu'} ref={root}>
      <button
        ref={button}
        type="button"
        className="account-menu__button"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen(!open)}
      >
        <Avatar avatar={account.avatar} size={32} />
        <span className="account-menu__name">{account.displayName || account.username}</span>
        <span className="visually-hidden">: account menu</span>
      </button>
      <div className="account-menu__panel" id={menuId} hidden={!open}>
        <p className="account-menu__who">
          Signed in as <strong>@{account.username}</strong>
        </p>
        <ul>
          <li>
            <Link to="/$username" params={{ username: account.username }}>
              Your profile
            </Link>
          </li>
          <li>
            <Link to="/account/edit">Edit profile</Link>
          </li>
          <li>
            <Link to="/account/settings">Settings</Link>
          </li>
          <li>
            <button
              type="button"
              className="account-menu__signout"
              onClick={() => void signOut().then(() => navigate({ to: '/' }))}
            >
              Sign out
            </button>
          </li>
        </ul>
      </div>
    </div>
  );
}

import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { LocalApp } from '../../sync/local-apps';
import type { SyncState } from '../../sync/sync-state';
import { Loading } from '../../ui/loading';
import { SyncBadge } from '../editor/sync-badge';
import './app-list.css';

/**
 * An app's sync state in a list, from what this device knows without opening it: changes the
 * server has not acknowledged are counted on the device; none means the server has them all.
 */
export function listedSync(app: LocalApp, online: boolean): SyncState {
  if (app.registrationRefused) {
    const why = app.registrationRefused === 'limit_reached' ? 'plan-limit' : 'rejected';
    return { kind: 'error', why };
  }
  if (!app.registered || app.pending > 0 || app.archiveDue) {
    // An app the server does not know yet, or an archive choice it has not taken, is one change.
    const pending = Math.max(app.pending, !app.registered || app.archiveDue ? 1 : 0);
    return online ? { kind: 'syncing', pending } : { kind: 'offline', pending };
  }
  return { kind: 'saved' };
}

const ROLE_LABEL = { owner: 'Yours', editor: 'Shared · can edit', viewer: 'Shared · can view' };

/** Apps as rows: icon, name (opens the editor), role, publication, sync state and actions. */
export function AppList({
  apps,
  online,
  actions,
}: {
  apps: LocalApp[];
  online: boolean;
  actions: (app: LocalApp) => ReactNode;
}) {
  return (
    <ul className="app-list">
      {apps.map((app) => (
        <li key={app.key} className="app-list__row">
          <span
            className="app-list__icon"
            aria-hidden="true"
            style={app.icon?.kind === 'emoji' ? { background: app.icon.background } : undefined}
          >
            {app.icon?.kind === 'emoji' ? app.icon.emoji : '🐦'}
          </span>
          <div className="app-list__main">
            <Link className="app-list__title" to="/apps/$id/edit" params={{ id: app.id }}>
              {app.title || 'Untitled app'}
            </Link>
            <p className="app-list__meta">
              {ROLE_LABEL[app.role]} · {app.published ? 'Published' : 'Draft'} · Changed{' '}
              {new Date(app.updatedAt).toLocaleDateString(undefined, { dateStyle: 'medium' })}
            </p>
            <SyncBadge state={listedSync(app, online)} />
          </div>
          <div className="app-list__actions">{actions(app)}</div>
        </li>
      ))}
    </ul>
  );
}

/** A list of apps with its loading and empty states (`apps` is undefined while loading). */
export function AppListOrEmpty({
  apps,
  loadingLabel,
  empty,
  ...list
}: {
  apps: LocalApp[] | undefined;
  online: boolean;
  loadingLabel: string;
  empty: ReactNode;
  actions: (app: LocalApp) => ReactNode;
}) {
  if (apps === undefined) return <Loading label={loadingLabel} />;
  if (apps.length === 0) return <>{empty}</>;
  return <AppList apps={apps} {...list} />;
}

import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { AppIcon as AppIconValue } from '@pipit/protocol';
import { AppIcon } from './app-icon';
import { Loading } from './loading';
import { type SyncBadgeTone, SyncBadge } from './sync-badge';
import './app-list.css';

/** What a row shows of an app: this device's record of it (client/sync's LocalApp fits). */
export interface ListedApp {
  key: string;
  id: string;
  title: string;
  icon: AppIconValue | null;
  role: 'owner' | 'editor' | 'viewer';
  published: boolean;
  updatedAt: number;
}

/** An app's sync state as its badge shows it. */
type DescribeSync<T> = (app: T) => { text: string; tone: SyncBadgeTone };

const ROLE_LABEL = { owner: 'Yours', editor: 'Shared · can edit', viewer: 'Shared · can view' };

/** Apps as rows: icon, name (opens the editor), role, publication, sync state and actions. */
export function AppList<T extends ListedApp>({
  apps,
  sync,
  actions,
}: {
  apps: T[];
  sync: DescribeSync<T>;
  actions: (app: T) => ReactNode;
}) {
  return (
    <ul className="app-list">
      {apps.map((app) => (
        <li key={app.key} className="app-list__row">
          <AppIcon icon={app.icon} size={48} />
          <div className="app-list__main">
            <Link className="app-list__title" to="/apps/$id/edit" params={{ id: app.id }}>
              {app.title || 'Untitled app'}
            </Link>
            <p className="app-list__meta">
              {ROLE_LABEL[app.role]} · {app.published ? 'Published' : 'Draft'} · Changed{' '}
              {new Date(app.updatedAt).toLocaleDateString(undefined, { dateStyle: 'medium' })}
            </p>
            <SyncBadge {...sync(app)} />
          </div>
          <div className="app-list__actions">{actions(app)}</div>
        </li>
      ))}
    </ul>
  );
}

/** A list of apps with its loading and empty states (`apps` is undefined while loading). */
export function AppListOrEmpty<T extends ListedApp>({
  apps,
  loadingLabel,
  empty,
  ...list
}: {
  apps: T[] | undefined;
  sync: DescribeSync<T>;
  loadingLabel: string;
  empty: ReactNode;
  actions: (app: T) => ReactNode;
}) {
  if (apps === undefined) return <Loading label={loadingLabel} />;
  if (apps.length === 0) return <>{empty}</>;
  return <AppList apps={apps} {...list} />;
}

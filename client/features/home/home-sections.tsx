import {
  type AppSummary,
  appListResponseSchema,
  appPwaPaths,
  exploreResponseSchema,
} from '@pipit/protocol';
import { Link } from '@tanstack/react-router';
import { useLibrary } from '../../sync/library/library';
import type { LocalApp } from '../../sync/app-document/local-apps';
import { AppCardGrid } from '../../ui/app-card';
import { AppIcon } from '../../ui/app-icon';
import { buttonClass } from '../../ui/button';
import { ButtonLink } from '../../ui/button-link';
import { EmptyState } from '../../ui/empty-state';
import { timeAgo } from '../../ui/format-time';
import { Loading } from '../../ui/loading';
import { useApiGet } from '../../platform/api/use-api-get';
import { describeSync, listedSync } from '../../sync/core/sync-status';
import { AppListOrEmpty } from '../../ui/app-list';
import './home-page.css';

const RECENT_COUNT = 5;
const ACTIVITY_COUNT = 6;
const SUGGESTION_COUNT = 4;
const LIBRARY_COUNT = 4;
/** The same address /explore asks for its "popular" sort, so all share the offline copy. */
const POPULAR_PATH = '/api/explore?sort=popular';

/** My apps on this device, most recently changed first, with their sync state. */
export function ContinueEditing({
  apps,
  online,
}: {
  apps: LocalApp[] | undefined;
  online: boolean;
}) {
  const recent = apps?.filter((app) => !app.archived && !app.deleting).slice(0, RECENT_COUNT);
  return (
    <AppListOrEmpty
      apps={recent}
      sync={(app) => describeSync(listedSync(app, online))}
      loadingLabel="Loading your apps…"
      empty={
        <EmptyState
          icon="✏️"
          title="Nothing to continue yet"
          level={3}
          action={
            <ButtonLink to="/create" variant="secondary">
              Create an app
            </ButtonLink>
          }
        >
          Apps you edit appear here, on every device you sign in on.
        </EmptyState>
      }
      actions={() => null}
    />
  );
}

const ROLE_WORDS = { owner: 'yours', editor: 'you can edit', viewer: 'you can view' } as const;

interface Activity {
  id: string;
  title: string;
  icon: AppSummary['icon'];
  owner: string | null;
  role: AppSummary['role'];
  updatedAt: number;
}

/**
 * Apps other people share with me, by when they last changed: the server's list when it
 * answers, else what this device knows (docs/product/routes.md: /home works offline from local
 * data).
 */
export function CollaboratorActivity({ localApps }: { localApps: LocalApp[] | undefined }) {
  const result = useApiGet('/api/apps', appListResponseSchema);
  let items: Activity[] | undefined;
  if (result.status === 'ready') {
    items = result.data.apps
      .filter((app) => app.role !== 'owner' && !app.archived)
      .map((app) => ({ ...app, owner: app.owner.displayName || app.owner.username }));
  } else if (result.status === 'error') {
    items = localApps
      ?.filter((app) => app.role !== 'owner' && !app.archived && !app.deleting)
      .map((app) => ({ ...app, owner: null }));
  }
  if (items === undefined) return <Loading label="Loading recent activity…" />;
  const shown = [...items].sort((a, b) => b.updatedAt - a.updatedAt).slice(0, ACTIVITY_COUNT);
  if (shown.length === 0) {
    return (
      <EmptyState icon="🤝" title="No recent activity" level={3}>
        When someone shares an app with you, its latest changes show up here.
      </EmptyState>
    );
  }
  return (
    <ul className="home-activity">
      {shown.map((app) => (
        <li key={app.id} className="home-activity__item">
          <AppIcon icon={app.icon} size={40} />
          <div className="home-activity__main">
            <Link to="/apps/$id/edit" params={{ id: app.id }} className="home-activity__title">
              {app.title || 'Untitled app'}
            </Link>
            <p className="home-activity__meta">
              {app.owner ? `${app.owner}’s app · ` : ''}
              {ROLE_WORDS[app.role]} · updated{' '}
              <time dateTime={new Date(app.updatedAt).toISOString()}>{timeAgo(app.updatedAt)}</time>
            </p>
          </div>
        </li>
      ))}
    </ul>
  );
}

/** Popular public apps that are not mine and that I do not already work on. */
export function Suggestions({
  username,
  localApps,
}: {
  username: string;
  localApps: LocalApp[] | undefined;
}) {
  const result = useApiGet(POPULAR_PATH, exploreResponseSchema);
  if (result.status === 'loading') return <Loading label="Loading suggestions…" />;
  const mine = new Set(localApps?.map((app) => app.id));
  const apps =
    result.status === 'ready'
      ? result.data.apps
          .filter((app) => app.author.username !== username && !mine.has(app.id))
          .slice(0, SUGGESTION_COUNT)
      : [];
  if (apps.length === 0) {
    return (
      <EmptyState
        icon="🌱"
        title={
          result.status === 'error'
            ? 'Suggestions appear when you’re online'
            : 'Nothing to suggest yet'
        }
        level={3}
        action={
          <ButtonLink to="/explore" variant="secondary">
            Explore apps
          </ButtonLink>
        }
      >
        Popular public apps made by other people are suggested here.
      </EmptyState>
    );
  }
  return <AppCardGrid apps={apps} />;
}

/** The apps I opened, saved or installed last (from this device, so offline too). */
export function LibraryPreview({ accountId }: { accountId: string }) {
  const entries = useLibrary(accountId);
  if (entries === undefined) return <Loading label="Loading your library…" />;
  if (entries.length === 0) {
    return (
      <EmptyState
        icon="📚"
        title="Your library is empty"
        level={3}
        action={
          <ButtonLink to="/explore" variant="secondary">
            Find an app
          </ButtonLink>
        }
      >
        Apps you open, save or install from other people are kept here and work offline.
      </EmptyState>
    );
  }
  return (
    <ul className="home-activity" aria-label="Your library">
      {entries.slice(0, LIBRARY_COUNT).map((entry) => {
        const title = entry.title || 'Untitled app';
        return (
          <li key={entry.appId} className="home-activity__item">
            <AppIcon icon={entry.icon} size={40} />
            <div className="home-activity__main">
              <Link to="/apps/$id" params={{ id: entry.appId }} className="home-activity__title">
                {title}
              </Link>
              <p className="home-activity__meta">
                {entry.author ? `by @${entry.author} · ` : ''}
                {entry.installedAt ? 'installed' : entry.openedAt > 0 ? 'opened' : 'saved'}{' '}
                {timeAgo(Math.max(entry.openedAt, entry.installedAt ?? 0, entry.savedAt ?? 0))}
              </p>
            </div>
            {/* A full page load: the app's page comes with its own manifest. */}
            <a
              className={buttonClass('secondary', 'small')}
              href={appPwaPaths(entry.appId).page}
              aria-label={`Open ${title}`}
            >
              Open
            </a>
          </li>
        );
      })}
    </ul>
  );
}

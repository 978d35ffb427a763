import { useState } from 'react';
import { type LocalApp, useLocalApps } from '../../sync/app-document/local-apps';
import { Button } from '../../ui/button';
import { ButtonLink } from '../../ui/button-link';
import { EmptyState } from '../../ui/empty-state';
import { Notice } from '../../ui/notice';
import { Page } from '../../ui/page';
import { Segmented } from '../../ui/segmented';
import { useOnlineStatus } from '../../ui/use-online-status';
import { useSession } from '../../platform/session/session';
import { archiveApp } from '../../platform/app-registry';
import { describeSync, listedSync } from '../../sync/core/sync-status';
import { AppListOrEmpty } from '../../ui/app-list';

const FILTERS = [
  { value: 'all', label: 'All' },
  { value: 'draft', label: 'Drafts' },
  { value: 'published', label: 'Published' },
  { value: 'shared', label: 'Shared with me' },
] as const;
type Filter = (typeof FILTERS)[number]['value'];

const EMPTY_TEXT: Record<Filter, string> = {
  all: 'Apps you create, and apps people share with you, appear here with their sync state.',
  draft: 'Apps you have never published are drafts. You have none.',
  published: 'You have not published an app yet.',
  shared: 'No one has shared an app with you yet.',
};

const MATCHES: Record<Filter, (app: LocalApp) => boolean> = {
  all: () => true,
  draft: (app) => app.role === 'owner' && !app.published,
  published: (app) => app.published,
  shared: (app) => app.role !== 'owner',
};

/** `/studio`: the creator's workspace — own and shared apps, their sync state, filters. */
export function StudioPage() {
  const { account } = useSession();
  const online = useOnlineStatus();
  const [filter, setFilter] = useState<Filter>('all');
  const [justArchived, setJustArchived] = useState<LocalApp | null>(null);
  const apps = useLocalApps(account?.id ?? null);
  const shown = apps?.filter((app) => !app.archived && !app.deleting && MATCHES[filter](app));
  const archivedCount = apps?.filter((app) => app.archived && !app.deleting).length ?? 0;

  function archive(app: LocalApp, archived: boolean) {
    if (!account) return;
    setJustArchived(archived ? app : null);
    void archiveApp(account.id, app.id, archived);
  }
  const waiting =
    apps?.filter((a) => !a.deleting && listedSync(a, online).kind !== 'saved').length ?? 0;

  return (
    <Page
      title="Studio"
      lead="Everything you build, and everything shared with you."
      actions={
        <>
          <ButtonLink to="/archive" variant="secondary">
            {archivedCount > 0 ? `Archive (${archivedCount})` : 'Archive'}
          </ButtonLink>
          <ButtonLink to="/create">New app</ButtonLink>
        </>
      }
    >
      <div className="stack">
        {justArchived ? (
          <Notice tone="info" title={`“${justArchived.title}” is in the archive`} live="polite">
            <p>It has left your profile and Explore; installed copies keep working.</p>
            <div className="row">
              <Button variant="secondary" size="small" onClick={() => archive(justArchived, false)}>
                Undo
              </Button>
            </div>
          </Notice>
        ) : null}
        {!online ? (
          <Notice tone="offline" title="You’re offline">
            <p>
              Your apps open and edit as usual.{' '}
              {waiting > 0
                ? `${waiting} ${waiting === 1 ? 'app has' : 'apps have'} changes on this device that will sync when you’re back online.`
                : 'Everything here was saved to your account before you went offline.'}
            </p>
          </Notice>
        ) : null}
        <Segmented label="Show" options={FILTERS} value={filter} onChange={setFilter} />
        <AppListOrEmpty
          apps={shown}
          sync={(app) => describeSync(listedSync(app, online))}
          loadingLabel="Loading your apps…"
          empty={
            <EmptyState
              icon="🛠️"
              title="No apps here yet"
              action={
                filter === 'all' || filter === 'draft' ? (
                  <ButtonLink to="/create" variant="secondary">
                    Create your first app
                  </ButtonLink>
                ) : null
              }
            >
              {EMPTY_TEXT[filter]}
            </EmptyState>
          }
          actions={(app) =>
            app.role === 'owner' && account ? (
              <Button
                variant="ghost"
                size="small"
                aria-label={`Archive ${app.title}`}
                onClick={() => archive(app, true)}
              >
                Archive
              </Button>
            ) : null
          }
        />
      </div>
    </Page>
  );
}

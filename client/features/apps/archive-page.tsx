import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { type LocalApp, markDeleting, useLocalApps } from '../../sync/app-document/local-apps';
import { Button } from '../../ui/button';
import { EmptyState } from '../../ui/empty-state';
import { Notice } from '../../ui/notice';
import { Page } from '../../ui/page';
import { useOnlineStatus } from '../../ui/use-online-status';
import { useSession } from '../../platform/session/session';
import { archiveApp, reconcileApps } from '../../platform/app-registry';
import { describeSync, listedSync } from '../../sync/core/sync-status';
import { AppListOrEmpty } from '../../ui/app-list';

/** `/archive`: archived apps — restore them, or delete them forever (after confirming). */
export function ArchivePage() {
  const { account } = useSession();
  const online = useOnlineStatus();
  const apps = useLocalApps(account?.id ?? null);
  const [confirming, setConfirming] = useState<LocalApp | null>(null);
  const archived = apps?.filter((app) => app.archived && !app.deleting);

  async function deleteForever(app: LocalApp) {
    if (!account) return;
    setConfirming(null);
    // Gone from this device at once; the server deletes it now, or when the device is next online.
    await markDeleting(account.id, app.id);
    if (navigator.onLine) await reconcileApps(account.id);
  }

  return (
    <Page
      title="Archive"
      lead="Archived apps leave your profile and Explore. Installed copies keep working until you delete an app for good."
    >
      <div className="stack">
        {!online ? (
          <Notice tone="offline" title="You’re offline">
            <p>
              Restoring works now. Deleting forever happens on the server when you’re back online.
            </p>
          </Notice>
        ) : null}
        {confirming ? (
          <Notice tone="danger" title={`Delete “${confirming.title}” forever?`} live="alert">
            <p>
              The app, its versions and every collaborator’s access are removed for good, and
              installed copies stop working. This cannot be undone.
            </p>
            <div className="row">
              <Button variant="danger" onClick={() => void deleteForever(confirming)}>
                Delete forever
              </Button>
              <Button variant="secondary" onClick={() => setConfirming(null)}>
                Keep it
              </Button>
            </div>
          </Notice>
        ) : null}
        <AppListOrEmpty
          apps={archived}
          sync={(app) => describeSync(listedSync(app, online))}
          loadingLabel="Loading archived apps…"
          empty={
            <EmptyState icon="🗄️" title="Nothing archived">
              Archive an app from the <Link to="/studio">studio</Link>. From here you can restore
              it, or delete it forever after confirming.
            </EmptyState>
          }
          actions={(app) =>
            app.role === 'owner' && account ? (
              <>
                <Button
                  variant="secondary"
                  size="small"
                  aria-label={`Restore ${app.title}`}
                  onClick={() => void archiveApp(account.id, app.id, false)}
                >
                  Restore
                </Button>
                <Button
                  variant="danger"
                  size="small"
                  aria-label={`Delete ${app.title} forever`}
                  onClick={() => setConfirming(app)}
                >
                  Delete forever…
                </Button>
              </>
            ) : null
          }
        />
      </div>
    </Page>
  );
}

import { useEffect, useState } from 'react';
import { ANONYMOUS_VIEWER, type PublishedApp } from '@pipit/protocol';
import { queueLibraryEntry } from '../../sync/library-inbox';
import { useVisitorData } from '../../sync/visitor-data';
import { loadSession, useSession } from '../../platform/session/session';
import { PwaNotFound } from './pwa-not-found';
import { AppHost } from './app-host';
import type { PwaLoad } from './load-pwa-app';
import { readPublishedDefinition } from '../../platform/published-definition';
import { UpdateBanner } from './update-banner';
import { useAppUpdates } from './use-app-updates';
import { askPersistentStorage, recordOpen } from './visit-effects';

/** `/apps/{id}/pwa`: the installed app itself (docs/product/routes.md), or why it cannot run. */
export function PwaPage({ load }: { load: PwaLoad }) {
  if (load.kind === 'offline') return <PwaNotFound problem="offline" />;
  if (load.kind === 'not-found' || load.kind === 'deleted')
    return <PwaNotFound problem={load.kind} />;
  return <RunningApp key={load.app.id} initial={load.app} fromDevice={load.fromDevice} />;
}

function RunningApp({ initial, fromDevice }: { initial: PublishedApp; fromDevice: boolean }) {
  const appId = initial.id;
  const { account } = useSession();
  const accountId = account?.id ?? null;
  const [showing, setShowing] = useState(initial);
  const updates = useAppUpdates(appId, showing, { checkNow: fromDevice });
  const definition = readPublishedDefinition(showing);
  const visitorData = useVisitorData({ kind: 'app', appId, accountId });

  useEffect(() => {
    // Outside the site's layout nothing else asks who is signed in: the copy last seen on this
    // device answers at once (offline too), the server's answer follows.
    void loadSession();
    recordOpen(appId);
    askPersistentStorage();
  }, [appId]);

  useEffect(() => {
    if (showing.version === null) return;
    // Into the library (docs/product/routes.md `/apps`) by way of its inbox: an anonymous visitor's
    // first visit loads no database code; someone signed in syncs anyway, so their entry moves in
    // at once.
    queueLibraryEntry(accountId ?? ANONYMOUS_VIEWER, {
      appId,
      title: showing.title,
      icon: showing.icon,
      author: showing.author.username,
      version: showing.version,
      openedAt: Date.now(),
    });
    if (!accountId) return;
    import('../../sync/library')
      .then(({ drainLibraryInbox }) => drainLibraryInbox(accountId))
      .catch((error: unknown) => console.warn('Could not add the app to your library:', error));
  }, [appId, accountId, showing]);

  useEffect(() => {
    // The app's own name, as a native app's window has (an update may rename it).
    document.title = showing.title || 'Untitled app';
  }, [showing]);

  if (updates.gone) return <PwaNotFound problem={updates.gone} />;
  if (showing.version === null) return <PwaNotFound problem="draft" />;
  if (!definition) return <PwaNotFound problem="unreadable" />;
  const newer = updates.newer;
  return (
    <AppHost
      definition={definition}
      visitorData={visitorData}
      appId={appId}
      accountId={accountId}
      user={account ? { name: account.displayName || account.username } : null}
      notice={
        newer ? (
          <UpdateBanner
            version={newer.version}
            onUpdate={() => setShowing(newer)}
            onDismiss={updates.dismiss}
          />
        ) : null
      }
    />
  );
}

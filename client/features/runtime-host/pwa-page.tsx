import { useEffect, useMemo, useState } from 'react';
import { ANONYMOUS_VIEWER, type PublishedApp } from '@pipit/protocol';
import { queueLibraryEntry } from '../../sync/library/library-inbox';
import { isSharedCollection } from '@pipit/app-definition';
import { useAppData } from '../../sync/visitor-data/app-data';
import { useDeviceSpaces } from '../../sync/spaces/space-list';
import { loadSession, useSession, useSessionSettled } from '../../platform/session/session';
import { PwaNotFound } from './pwa-missing';
import { AppHost } from './app-host';
import type { PwaLoad } from './load-pwa-app';
import { readPublishedDefinition } from '../../platform/published-definition';
import { UpdateBanner } from './update-banner';
import { useAppUpdates } from './use-app-updates';
import { askPersistentStorage, recordOpen } from './visit-effects';

/** `/apps/{id}/pwa`: the installed app itself (docs/product/routes.md), or why it cannot run. */
export function PwaPage({ appId, load }: { appId: string; load: PwaLoad }) {
  if (load.kind === 'offline') return <PwaNotFound problem="offline" />;
  if (load.kind === 'deleted') return <DeletedApp appId={appId} />;
  if (load.kind === 'not-found') return <PwaNotFound problem="not-found" appId={appId} />;
  return <RunningApp key={load.app.id} initial={load.app} fromDevice={load.fromDevice} />;
}

/** A deleted app also leaves the person's library (it listed an app that can never open). */
function DeletedApp({ appId }: { appId: string }) {
  const [forgotten, setForgotten] = useState(false);
  useEffect(() => {
    void loadSession()
      .then(async ({ account }) => {
        const { forgetDeletedApp } = await import('../../sync/library/library');
        await forgetDeletedApp(account?.id ?? null, appId);
        setForgotten(true);
      })
      .catch((error: unknown) => console.warn('Could not update your library:', error));
  }, [appId]);
  return (
    <PwaNotFound
      problem="deleted"
      appId={appId}
      note={forgotten ? 'It was taken out of your apps.' : undefined}
    />
  );
}

function RunningApp({ initial, fromDevice }: { initial: PublishedApp; fromDevice: boolean }) {
  const appId = initial.id;
  const { account } = useSession();
  const accountId = account?.id ?? null;
  const [showing, setShowing] = useState(initial);
  const updates = useAppUpdates(appId, showing, { checkNow: fromDevice });
  const definition = readPublishedDefinition(showing);
  const name = account ? account.displayName || account.username : '';
  // The same object while the name is: the app (memoized) renders again only when it changes.
  const signedIn = account !== null;
  const user = useMemo(() => (signedIn ? { name } : null), [signedIn, name]);
  const hasShared = definition?.collections.some(isSharedCollection) ?? false;
  const device = useDeviceSpaces(hasShared ? accountId : null, appId);
  const shown = device.spaces.find((space) => space.id === device.activeId) ?? null;
  const settled = useSessionSettled();
  const appData = useAppData({
    appId,
    accountId,
    held: !settled,
    name,
    definition,
    space: shown
      ? { id: shown.id, role: shown.role, people: device.people[shown.id] ?? null }
      : null,
  });
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
    import('../../sync/library/library')
      .then(({ drainLibraryInbox }) => drainLibraryInbox(accountId))
      .catch((error: unknown) => console.warn('Could not add the app to your library:', error));
  }, [appId, accountId, showing]);

  useEffect(() => {
    // The app's own name, as a native app's window has (an update may rename it).
    document.title = showing.title || 'Untitled app';
  }, [showing]);

  if (updates.gone === 'deleted') return <DeletedApp appId={appId} />;
  if (updates.gone) return <PwaNotFound problem={updates.gone} appId={appId} />;
  if (showing.version === null) return <PwaNotFound problem="draft" />;
  if (!definition) return <PwaNotFound problem="unreadable" />;
  const newer = updates.newer;
  return (
    <AppHost
      definition={definition}
      visitorData={appData}
      appId={appId}
      accountId={accountId}
      user={user}
      spaces={
        hasShared ? { account: account && { id: account.id, username: account.username } } : null
      }
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

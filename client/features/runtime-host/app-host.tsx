import type { ReadDefinition } from '@pipit/app-definition';
import { type RuntimeUser, themeStyle } from '@pipit/runtime';
import { lazy, type ReactNode, Suspense, useContext, useEffect, useRef } from 'react';
import { ANONYMOUS_VIEWER } from '@pipit/protocol';
import type { AppDataView } from '../../sync/visitor-data/app-data';
import { AppIcon } from '../../ui/app-icon';
import { Loading } from '../../ui/loading';
import { useAppColorMode } from '../../ui/color-mode';
import { describeDataSync } from '../../sync/visitor-data/status';
import { SyncIndicator } from '../../ui/sync-indicator';
import { askToPersist, isStandalone } from '../../sync/core/device-storage';
import { AppArea } from './app-area';
import { useFirstScreenKeeper } from './first-screen-keeper';
import { useRecordFiles } from './record-files-host';
import { RefusedFilesNotice } from './refused-files-notice';
import { type HostSpacesParts, SpacesSlot } from './spaces-slot';

/** Only an app with AI actions loads its AI host (ai-app-area.tsx). */
const AiAppArea = lazy(() =>
  import('./ai-app-area').then((module) => ({ default: module.AiAppArea })),
);

/** Under the app: its reminders and "Your data on this device" (app-footer.tsx). */
const AppFooter = lazy(() =>
  import('./app-footer').then((module) => ({ default: module.AppFooter })),
);

import './runtime-host.css';

/**
 * A published app running full screen with the visitor's data (`/apps/{id}/pwa`): a slim bar with
 * the app's icon and name (the page's h1; each screen's title is its heading below) and a small
 * note of where the data is saved, whatever the page adds under it (the update offer), and the
 * runtime. Everything is in the app's own colours and light or dark mode, not Pipit's.
 */
export function AppHost({
  definition,
  visitorData,
  user,
  appId,
  accountId,
  notice,
  spaces = null,
}: {
  definition: ReadDefinition;
  visitorData: AppDataView;
  /** Null: the app has no shared collections. Otherwise the account spaces are for, if any. */
  spaces?: { account: { id: string; username: string } | null } | null;
  user: RuntimeUser | null;
  appId: string;
  /** The signed-in visitor's account (their AI runs queued on this device), null when anonymous. */
  accountId: string | null;
  /** Shown above the app (e.g. "New version available"). */
  notice?: ReactNode;
}) {
  const colorMode = useAppColorMode(definition.theme.mode);
  // Running installed, the browser is asked to keep the app's storage at once: it grants it to an
  // app the person chose to keep (anywhere else the panel's button asks).
  useEffect(() => {
    if (isStandalone()) void askToPersist();
  }, []);
  const renderSpaces = useContext(SpacesSlot);
  const files = useRecordFiles({
    appId,
    accountId,
    definition,
    spaceId: visitorData.spaceId ?? null,
  });
  const area = { definition, visitorData, colorMode, user, files };
  const host = useRef<HTMLDivElement>(null);
  useFirstScreenKeeper({
    appId,
    viewer: accountId ?? ANONYMOUS_VIEWER,
    host,
    firstScreenId: definition.screens[0]?.id ?? null,
    ready: visitorData.phase === 'ready',
    spaceId: visitorData.spaceId ?? null,
    data: visitorData.phase === 'ready' ? visitorData.data : null,
    definition,
    colorMode,
  });
  const layout = ({ button, notices, dialog }: HostSpacesParts) => (
    <div className="app-host" ref={host} style={themeStyle(definition.theme, colorMode)}>
      <header className="app-host__bar">
        <AppIcon icon={definition.meta.icon} size={32} />
        <h1 className="app-host__title" dir="auto">
          {definition.meta.title}
        </h1>
        <SyncIndicator {...describeDataSync(visitorData.sync)} />
        {button}
      </header>
      {notice}
      {notices}
      <RefusedFilesNotice accountId={accountId} />
      {dialog}
      {definition.aiActions.length > 0 ? (
        <Suspense
          fallback={
            <main className="app-host__main" id="main">
              <Loading label="Opening the app…" />
            </main>
          }
        >
          <AiAppArea {...area} appId={appId} accountId={accountId} />
        </Suspense>
      ) : (
        <AppArea {...area} />
      )}
      <Suspense fallback={null}>
        <AppFooter
          appId={appId}
          definition={definition}
          visitorData={visitorData}
          signedIn={user !== null}
        />
      </Suspense>
    </div>
  );
  if (!spaces || !renderSpaces) return layout({});
  return renderSpaces({
    appId,
    appTitle: definition.meta.title,
    account: spaces.account,
    visitorData,
    children: layout,
  });
}

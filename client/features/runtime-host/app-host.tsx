import type { ReadDefinition } from '@pipit/app-definition';
import { AppRuntime, type RuntimeUser, themeStyle } from '@pipit/runtime';
import type { ReactNode } from 'react';
import type { VisitorDataView } from '../../sync/visitor-data';
import { AppIcon } from '../../ui/app-icon';
import { Loading } from '../../ui/loading';
import { useAppColorMode } from '../../ui/color-mode';
import { describeDataSync } from '../../sync/visitor-data-status';
import { SyncIndicator } from '../../ui/sync-indicator';
import type { SyncState } from '../../sync/sync-state';
import { DurabilityPanel } from '../../ui/durability-panel';
import { useDurability } from '../../sync/device-storage';
import { useOnlineStatus } from '../../ui/use-online-status';
import { AiRunList } from './ai-run-list';
import { useAiHost } from './use-ai-host';
import './runtime-host.css';

/** Changes of the visitor's data the server has not confirmed (null: not known, or not syncing). */
function waitingOf(sync: SyncState): number | null {
  if (sync.kind === 'saved') return 0;
  if (sync.kind === 'syncing' || sync.kind === 'offline' || sync.kind === 'connecting') {
    return sync.pending;
  }
  return null;
}

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
}: {
  definition: ReadDefinition;
  visitorData: VisitorDataView;
  user: RuntimeUser | null;
  appId: string;
  /** The signed-in visitor's account (their AI runs queued on this device), null when anonymous. */
  accountId: string | null;
  /** Shown above the app (e.g. "New version available"). */
  notice?: ReactNode;
}) {
  const colorMode = useAppColorMode(definition.theme.mode);
  const durability = useDurability();
  const online = useOnlineStatus();
  const ai = useAiHost({
    appId,
    accountId,
    definition,
    data: visitorData.phase === 'ready' ? visitorData.data : null,
  });
  return (
    <div className="app-host" style={themeStyle(definition.theme, colorMode)}>
      <header className="app-host__bar">
        <AppIcon icon={definition.meta.icon} size={32} />
        <h1 className="app-host__title" dir="auto">
          {definition.meta.title}
        </h1>
        <SyncIndicator {...describeDataSync(visitorData.sync)} />
      </header>
      {notice}
      <AiRunList definition={definition} runs={ai.aiRuns} onDismiss={ai.dismiss} />
      <main className="app-host__main" id="main">
        {visitorData.phase === 'ready' ? (
          <AppRuntime
            definition={definition}
            data={visitorData.data}
            colorMode={colorMode}
            user={user}
            runAi={ai.runAi}
            aiSignInHref={ai.aiSignInHref}
            aiRuns={ai.aiRuns}
            chrome="full"
          />
        ) : (
          <Loading label="Opening your data…" />
        )}
      </main>
      <footer>
        <details className="app-host__device">
          <summary>Your data on this device</summary>
          <DurabilityPanel
            facts={durability}
            waiting={waitingOf(visitorData.sync)}
            signedIn={visitorData.sync.kind !== 'local'}
            online={online}
            where="app"
          />
        </details>
      </footer>
    </div>
  );
}

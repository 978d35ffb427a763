import type { ReadDefinition } from '@pipit/app-definition';
import { AppRuntime, type RuntimeUser, themeStyle } from '@pipit/runtime';
import type { ReactNode } from 'react';
import type { VisitorDataView } from '../../sync/visitor-data';
import { Loading } from '../../ui/loading';
import { useAppColorMode } from './color-mode';
import { SyncIndicator } from './sync-indicator';
import './runtime-host.css';

/**
 * A published app running full screen with the visitor's data (`/apps/{id}/pwa`): the runtime, a
 * small note of where the data is saved, and whatever the page adds above it (the update offer).
 * Everything is in the app's own colours and light or dark mode, not Pipit's.
 */
export function AppHost({
  definition,
  visitorData,
  user,
  notice,
}: {
  definition: ReadDefinition;
  visitorData: VisitorDataView;
  user: RuntimeUser | null;
  /** Shown above the app (e.g. "New version available"). */
  notice?: ReactNode;
}) {
  const colorMode = useAppColorMode(definition.theme.mode);
  return (
    <div className="app-host" style={themeStyle(definition.theme, colorMode)}>
      <div className="app-host__bar">
        <SyncIndicator sync={visitorData.sync} />
      </div>
      {notice}
      <main className="app-host__main" id="main">
        {visitorData.phase === 'ready' ? (
          <AppRuntime
            definition={definition}
            data={visitorData.data}
            colorMode={colorMode}
            user={user}
            chrome="full"
          />
        ) : (
          <>
            <h1 className="visually-hidden">{definition.meta.title}</h1>
            <Loading label="Opening your data…" />
          </>
        )}
      </main>
    </div>
  );
}

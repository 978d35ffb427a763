import type { ReadDefinition } from '@pipit/app-definition';
import { AppRuntime, type RuntimeFiles, type RuntimeUser } from '@pipit/runtime';
import { type ReactNode, useLayoutEffect } from 'react';
import { dropFirstScreen } from '../../sync/device/first-screen-shown';
import type { AppDataView } from '../../sync/visitor-data/app-data';
import { Loading } from '../../ui/loading';
import type { AiHost } from './use-ai-host';

export interface AppAreaProps {
  definition: ReadDefinition;
  visitorData: AppDataView;
  colorMode: 'light' | 'dark';
  user: RuntimeUser | null;
  appId: string;
  accountId: string | null;
  /** Photos and files on records (record-files-host.ts). */
  files: RuntimeFiles;
}

/**
 * The running app in its host (app-host.tsx), once the visitor's data is open; with AI when the
 * app has AI actions (ai-app-area.tsx), which only such an app loads.
 */
export function AppArea({
  definition,
  visitorData,
  colorMode,
  user,
  files,
  ai = null,
  aiRunList = null,
}: Omit<AppAreaProps, 'appId' | 'accountId'> & {
  ai?: AiHost | null;
  /** The AI runs kept on this device, shown above the app. */
  aiRunList?: ReactNode;
}) {
  const ready = visitorData.phase === 'ready';
  // The app draws its own screen: the one kept on this device (sync/device/first-screen.ts), shown
  // while it started, goes before this frame is painted, so the two are never in the page at once.
  useLayoutEffect(() => {
    if (ready) dropFirstScreen();
  }, [ready]);
  return (
    <>
      {aiRunList}
      <main className="app-host__main" id="main">
        {visitorData.phase === 'ready' ? (
          <AppRuntime
            definition={definition}
            data={visitorData.data}
            colorMode={colorMode}
            user={user}
            files={files}
            {...(ai ? { runAi: ai.runAi, aiSignInHref: ai.aiSignInHref, aiRuns: ai.aiRuns } : {})}
            chrome="full"
          />
        ) : (
          <Loading label="Opening your data…" />
        )}
      </main>
    </>
  );
}

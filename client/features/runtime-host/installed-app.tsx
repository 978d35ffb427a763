import { appShellTarget } from '@pipit/protocol';
import { startTransition, useEffect, useLayoutEffect, useState } from 'react';
import { dropFirstScreen } from '../../sync/device/first-screen-shown';
import { ErrorScreen } from '../../ui/error-screen';
import { Loading } from '../../ui/loading';
import { ApiRequestError } from '../../platform/api/request';
import { PwaNotFound } from './pwa-missing';
import { UpdatePrompt } from '../../ui/update-prompt';
import { loadPwaApp, type PwaLoad } from './load-pwa-app';
import { PwaPage } from './pwa-page';
import './runtime-host.css';

type Loaded =
  { kind: 'loading' } | { kind: 'loaded'; load: PwaLoad } | { kind: 'failed'; error: unknown };

/** The window's title when there is no app to run (a running app titles it, pwa-page.tsx). */
function titleOf(state: Loaded): string | null {
  if (state.kind === 'loading') return null;
  if (state.kind === 'loaded' && state.load.kind === 'ready') return null;
  return 'App not available · Pipit';
}

/**
 * `/apps/{id}/pwa` on its own (client/app-main.tsx): loads the app — this device's copy first, so
 * an installed app opens at once and offline — and runs it; registers Pipit's service worker and
 * offers its updates, as every page of the site does.
 */
export function InstalledApp({
  pathname,
  initial = null,
}: {
  pathname: string;
  /** Already loaded (this device's copy, read before the first render: open-ahead.ts). */
  initial?: PwaLoad | null;
}) {
  const target = appShellTarget(pathname);
  const appId = target?.kind === 'app' ? target.appId : null;
  const [state, setState] = useState<Loaded>(
    initial ? { kind: 'loaded', load: initial } : { kind: 'loading' },
  );
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    // Loaded before the first render: only a retry loads again.
    if (!appId || (attempt === 0 && initial)) return;
    const controller = new AbortController();
    loadPwaApp(appId, controller.signal).then(
      // As a transition, like the first render (client/app-main.tsx): the app's first render, the
      // page's largest, in slices with the main thread free in between, not in one long task.
      (load) => startTransition(() => setState({ kind: 'loaded', load })),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        console.error(error);
        setState({ kind: 'failed', error });
      },
    );
    return () => controller.abort();
  }, [appId, attempt, initial]);

  // A kept first screen (sync/device/first-screen.ts) stays while the app loads, and goes before a
  // page that is not the app is painted (the app's own host takes it away when it draws).
  const drawsApp =
    appId !== null &&
    (state.kind === 'loading' || (state.kind === 'loaded' && state.load.kind === 'ready'));
  useLayoutEffect(() => {
    if (!drawsApp) dropFirstScreen();
  }, [drawsApp]);

  const title = appId ? titleOf(state) : 'App not available · Pipit';
  useEffect(() => {
    if (title !== null) document.title = title;
  }, [title]);

  return (
    <>
      {/* Above the app, in its flow: over it, it covered a form's button and the app's own toast. */}
      <UpdatePrompt placement="app" />
      {!appId ? (
        <PwaNotFound />
      ) : state.kind === 'loading' ? (
        <main className="app-host__loading" id="main">
          <Loading label="Opening the app…" />
        </main>
      ) : state.kind === 'failed' ? (
        <ErrorScreen
          digest={state.error instanceof ApiRequestError ? state.error.digest : undefined}
          onRetry={() => {
            setState({ kind: 'loading' });
            setAttempt((n) => n + 1);
          }}
        />
      ) : (
        <PwaPage appId={appId} load={state.load} />
      )}
    </>
  );
}

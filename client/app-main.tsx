import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
// First: the browser's install prompt and `appinstalled` can fire before the app has rendered.
import './features/app-page/install-prompt';
import { rootErrorOptions, startErrorReporting } from './platform/monitoring/error-reporting';
import { InstalledApp } from './features/runtime-host/installed-app';
import { openAhead } from './features/runtime-host/open-ahead';
import { lazyModule, useLazyModule } from '@pipit/runtime';
import {
  type HostSpacesProps,
  provideSpacesPart,
  SpacesSlot,
} from './features/runtime-host/spaces-slot';
import './ui/styles/tokens.css';
import './ui/styles/base.css';

/**
 * The entry of `/apps/{id}/pwa` (client/app.html): one published app, full screen, and nothing of
 * Pipit's site — no router, no site shell, no editor — so an app opens fast on a first visit and
 * from the service worker offline (its first visit's JavaScript is budgeted).
 */
const root = document.getElementById('root');
if (!root) throw new Error('app.html has no #root element');

// Its SDK is loaded only if something goes wrong: the app's first visit stays small.
startErrorReporting('on-first-error');

/**
 * The spaces' part of a running app: the spaces feature's, laid out by the runtime host. Its own
 * chunk, loaded before the first render of an app with shared collections only (load-pwa-app.ts,
 * `preloadAppParts`); until it is here, the app runs on the person's own data.
 */
const spacesPart = lazyModule(() => import('./features/spaces/app-spaces'));
provideSpacesPart(() => spacesPart.load());
function AppSpacesPart(props: HostSpacesProps) {
  const part = useLazyModule(spacesPart, true);
  return part ? <part.AppSpaces {...props} /> : props.children({});
}
const renderSpaces = (props: HostSpacesProps) => <AppSpacesPart {...props} />;

const { pathname } = window.location;
// What the first screen reads from this device is read at once; an app on this device renders
// itself first, not a loading screen (open-ahead.ts).
// Without the app at hand (a first visit: a loading screen, then the app) the render is a
// transition: React works in slices of a few milliseconds, so the main thread is free between them
// to paint and take input (the first render in one task was most of a phone's Total
// Blocking Time on a first visit). With the app at hand (every start of an installed app) it is
// one task at React's default priority: in slices, the browser painted "Opening the app…" and
// laid out frames in between, and the app came a frame or two later (offline at 4× CPU, heading
// p50 183–192 → 166–169 ms, docs/performance.md).
void openAhead(pathname).then((initial) => {
  const reactRoot = createRoot(root, rootErrorOptions);
  const app = (
    <StrictMode>
      {/* The runtime host lays out the spaces' part of an app; the spaces feature gives it. */}
      <SpacesSlot.Provider value={renderSpaces}>
        <InstalledApp pathname={pathname} initial={initial} />
      </SpacesSlot.Provider>
    </StrictMode>
  );
  if (initial?.kind === 'ready') reactRoot.render(app);
  else startTransition(() => reactRoot.render(app));
});

import type { ErrorReportingConfig } from '@pipit/protocol';
import { loadErrorReportingConfig } from '../client-config';
import type { ReportingSdk } from './sdk';

/**
 * Error reporting (docs/product/error-reporting.md): @sentry/browser, sending through the
 * same-origin tunnel `/monitoring?o=…&p=…` with the DSN, release and environment the server gives
 * at run time (no build-time secrets). The SDK is loaded apart from the page: the site asks for its
 * settings at start and loads it once the page is idle; the installed app (whose first visit's
 * JavaScript is budgeted) does both only when something goes wrong. Until then, errors wait here
 * and are reported once it is loaded. Reports made offline wait in IndexedDB (the SDK's offline
 * transport) and are sent when the device is back online.
 */

/** Errors waiting for the SDK; a page failing in a loop must not fill memory. */
const MAX_WAITING = 20;

export type ReportingStart = 'when-idle' | 'on-first-error';

interface Waiting {
  error: unknown;
  componentStack: string | undefined;
  handled: boolean;
}

let started = false;
let waiting: Waiting[] = [];
let sdk: Promise<ReportingSdk | null> | undefined;
let config: Promise<ErrorReportingConfig | null> | undefined;

function loadSdk(): Promise<ReportingSdk | null> {
  sdk ??= (async () => {
    config ??= loadErrorReportingConfig();
    const settings = await config;
    if (!settings) return null;
    const { startSdk } = await import('./sdk');
    const started = startSdk(settings);
    // The SDK watches for errors itself from now on.
    window.removeEventListener('error', onError);
    window.removeEventListener('unhandledrejection', onRejection);
    for (const item of waiting) started.capture(item.error, item);
    waiting = [];
    return started;
  })().catch((error: unknown) => {
    // Reporting must never break the page; try again on the next error.
    console.warn('Error reporting could not start:', error);
    sdk = undefined;
    config = undefined;
    return null;
  });
  return sdk;
}

function enqueue(item: Waiting) {
  if (waiting.length < MAX_WAITING) waiting.push(item);
  void loadSdk();
}

function onError(event: ErrorEvent) {
  enqueue({ error: event.error ?? event.message, componentStack: undefined, handled: false });
}

function onRejection(event: PromiseRejectionEvent) {
  enqueue({ error: event.reason, componentStack: undefined, handled: false });
}

/**
 * The SDK (~55 KB gzip) waits this long after the page's `load`, then for an idle moment: compiled
 * and started while a phone is still busy with the page, it was most of the page's blocking time
 * (Lighthouse mobile: 150–230 ms of Total Blocking Time, against 30–80 ms without it). An error
 * before then loads it at once; the page's own handlers keep the error until it has.
 */
const SDK_DELAY_AFTER_LOAD_MS = 5_000;

/**
 * Starts watching for errors in this page. `when-idle` loads the SDK once the page has loaded and
 * then been left alone a few seconds (so its breadcrumbs cover what the person does next);
 * `on-first-error` waits for an error.
 */
export function startErrorReporting(start: ReportingStart): void {
  if (started) return;
  started = true;
  window.addEventListener('error', onError);
  window.addEventListener('unhandledrejection', onRejection);
  if (start === 'when-idle') {
    // The settings are asked for with the page's other start-up requests; the SDK itself waits
    // until the page is idle.
    config = loadErrorReportingConfig();
    const load = () => void loadSdk();
    const whenIdle = () => {
      if ('requestIdleCallback' in window) requestIdleCallback(load, { timeout: 5_000 });
      else load();
    };
    const later = () => setTimeout(whenIdle, SDK_DELAY_AFTER_LOAD_MS);
    if (document.readyState === 'complete') later();
    else window.addEventListener('load', later, { once: true });
  }
}

/** An error React caught while rendering (root callbacks), reported with its component stack. */
export function reportError(
  error: unknown,
  info: { componentStack?: string | undefined; handled: boolean },
): void {
  const item = { error, componentStack: info.componentStack, handled: info.handled };
  void (sdk ?? Promise.resolve(null)).then((loaded) => {
    if (loaded) loaded.capture(item.error, item);
    else enqueue(item);
  });
}

/** React's root callbacks: what it caught, or could not, is reported and still in the console. */
export const rootErrorOptions = {
  onUncaughtError(error: unknown, info: { componentStack?: string | undefined }) {
    console.error(error);
    reportError(error, { componentStack: info.componentStack, handled: false });
  },
  onCaughtError(error: unknown, info: { componentStack?: string | undefined }) {
    console.error(error);
    reportError(error, { componentStack: info.componentStack, handled: true });
  },
};

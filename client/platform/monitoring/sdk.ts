import {
  browserTracingIntegration,
  type ErrorEvent,
  captureException,
  getCurrentScope,
  init,
  makeBrowserOfflineTransport,
  makeFetchTransport,
  withScope,
} from '@sentry/browser';
import {
  type ErrorReportingConfig,
  matchRoute,
  redactReport,
  redactUrlSecrets,
} from '@pipit/protocol';

/**
 * The SDK itself, loaded on its own (error-reporting.ts decides when). Its settings are the
 * constants of docs/product/error-reporting.md, written out so a change of SDK defaults cannot
 * change them unnoticed: 100 breadcrumbs (each message cut at 2,048 characters by the SDK), data
 * normalised to depth 3 and breadth 1,000. A 429 without rate-limit headers pauses reporting for
 * 60 s, keep-alive is used only while pending bytes ≤ 60,000 and fewer than 15 requests are
 * pending: the SDK's own behaviour, checked by e2e/error-reporting.test.ts.
 */

export interface ReportingSdk {
  capture(error: unknown, info: { componentStack: string | undefined; handled: boolean }): void;
}

/**
 * The page's route as docs/product/routes.md names it (`/apps/$id`), never the id or username
 * itself.
 */
function routeOf(pathname: string): string {
  return matchRoute(pathname)?.route ?? 'not-found';
}

/**
 * Offline is a normal state: a report is not sent into a network that is not there (the attempt
 * would only fail, noisily); the offline transport keeps it in IndexedDB and sends it when the
 * device is back online.
 */
function onlineOnly(make: typeof makeFetchTransport): typeof makeFetchTransport {
  return (options) => {
    const transport = make(options);
    return {
      ...transport,
      send: (envelope) =>
        navigator.onLine ? transport.send(envelope) : Promise.reject(new Error('offline')),
    };
  };
}

export function startSdk(config: ErrorReportingConfig): ReportingSdk {
  init({
    dsn: config.dsn,
    tunnel: config.tunnel,
    release: config.release,
    environment: config.environment,
    transport: makeBrowserOfflineTransport(onlineOnly(makeFetchTransport)),
    // Collect no user details, cookies, headers, query strings or bodies in the first place.
    dataCollection: {
      userInfo: false,
      cookies: false,
      httpHeaders: { request: { allow: ['User-Agent'] }, response: false },
      httpBodies: [],
      urlQueryParams: false,
    },
    maxBreadcrumbs: 100,
    normalizeDepth: 3,
    normalizeMaxBreadth: 1_000,
    // Never passwords, tokens, cookies or a visitor's app data (the server applies the same rule);
    // nor a token in a path: on `/join/{token}`, the page URL, the transaction and breadcrumbs
    // hold the invitation itself (url-secrets.ts).
    beforeSend: (event) => redactUrlSecrets(redactReport(event) as ErrorEvent),
    // Trace context travels with Pipit's own API requests (`sentry-trace`, `baggage` — capped at
    // 8,192 characters by the SDK), so a browser report and the server's failure it caused share a
    // trace id; no performance data is collected or sent.
    // Release-health sessions would send a report on every page load (and count against the
    // tunnel's 60 a minute per address); errors are what the inbox is for.
    integrations: (defaults) => [
      ...defaults.filter((integration) => integration.name !== 'BrowserSession'),
      browserTracingIntegration(),
    ],
    tracesSampleRate: 0,
    tracePropagationTargets: [/^\/(?!\/)/, window.location.origin],
  });
  getCurrentScope().addEventProcessor((event) => {
    event.tags = { ...event.tags, route: routeOf(window.location.pathname) };
    return event;
  });
  return {
    capture(error, { componentStack, handled }) {
      withScope((scope) => {
        if (componentStack) scope.setContext('react', { componentStack });
        captureException(error, { mechanism: { type: 'pipit', handled } });
      });
    },
  };
}

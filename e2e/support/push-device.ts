import type { BrowserContext, Page } from 'playwright-core';
import {
  type PushServiceStandIn,
  type RunningPipit,
  startPipit,
  startPushServiceStandIn,
} from '@pipit/sync-server/testing';

/**
 * Pipit with the push-service stand-in as its push service: the server sends to the stand-in,
 * which is on 127.0.0.1 (production refuses such endpoints: push/endpoints.ts). `options` are
 * startPipit's others.
 */
export async function startPipitWithPush(
  options: Omit<NonNullable<Parameters<typeof startPipit>[0]>, 'pushAgent' | 'pushEndpoints'> = {},
): Promise<{ pipit: RunningPipit; push: PushServiceStandIn }> {
  const push = await startPushServiceStandIn();
  const pipit = await startPipit({
    ...options,
    pushAgent: push.agent,
    pushEndpoints: (url) => url.origin === push.origin,
  });
  return { pipit, push };
}

/**
 * A browser whose push service is the stand-in's: `pushManager.subscribe()` answers with a
 * subscription the stand-in made (Chromium here cannot reach Google's push service), so what the
 * server sends arrives at the stand-in, decrypted with that subscription's keys, as a phone's
 * browser would get it. Everything else — permission, the page, the server, web-push — is real.
 */
function pushServiceScript(subscription: {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}) {
  return `(() => {
    const made = ${JSON.stringify(subscription)};
    let current = null;
    const bytes = (text) => Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4)), (c) => c.charCodeAt(0));
    PushManager.prototype.getSubscription = async function () { return current; };
    PushManager.prototype.subscribe = async function (options) {
      const key = options.applicationServerKey;
      current = {
        endpoint: made.endpoint,
        expirationTime: null,
        options: { userVisibleOnly: true, applicationServerKey: key instanceof ArrayBuffer ? key : key.buffer },
        getKey: (name) => bytes(made.keys[name]).buffer,
        toJSON: () => ({ endpoint: made.endpoint, expirationTime: null, keys: made.keys }),
        unsubscribe: async () => { current = null; return true; },
      };
      return current;
    };
  })();`;
}

/**
 * Gives `context` notification permission and a push subscription of the stand-in's, signed for
 * the server's key; answers the subscription, to read what reaches it.
 */
export async function usePushStandIn(
  context: BrowserContext,
  pipit: RunningPipit,
  push: PushServiceStandIn,
) {
  await context.grantPermissions(['notifications'], { origin: pipit.url });
  const key = await (await fetch(`${pipit.url}/api/push/key`)).json();
  const subscription = push.subscribe({
    applicationServerKey: (key as { publicKey: string }).publicKey,
  });
  await context.addInitScript({ content: pushServiceScript(subscription) });
  return subscription;
}

/**
 * Hands `payload` to the page's service worker as its push service would (DevTools'
 * `ServiceWorker.deliverPushMessage`), and answers the notifications the worker then shows.
 */
export async function showOnDevice(page: Page, pipit: RunningPipit, payload: string) {
  const cdp = await page.context().newCDPSession(page);
  const registrations = new Promise<{ registrationId: string; scopeURL: string }[]>((resolve) =>
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations: all }) => resolve(all)),
  );
  await cdp.send('ServiceWorker.enable');
  const ours = (await registrations).find((r) => r.scopeURL === `${pipit.url}/`);
  if (!ours) throw new Error('the page has no service worker of the server’s');
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin: pipit.url,
    registrationId: ours.registrationId,
    data: payload,
  });
  return () =>
    page.evaluate(async () =>
      (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
        title: n.title,
        body: n.body,
        path: (n.data as { path?: string }).path,
      })),
    );
}

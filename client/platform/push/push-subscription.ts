import { answerParser, anyAnswer } from '@pipit/protocol';
import { apiGet, apiSend } from '../api/request';
import { deviceId } from '../../sync/device/device-id';

/*
 * This device's Web Push subscription, asked for by an app for itself (docs/product/reminders.md).
 * Permission is asked only here, when a person has just chosen to be reminded — never on a visit —
 * and a refusal is theirs to keep: the browser will not ask again, so the app says how to allow it.
 */

/** What this browser can do about notifications, as a person would be told. */
export type PushAvailability =
  /** No Web Push here (an old browser, or iOS outside a home-screen app). */
  | 'unsupported'
  /** The person refused notifications for Pipit; only the browser's settings can change it. */
  | 'refused'
  /** Never asked yet, or asked and dismissed. */
  | 'ask'
  | 'allowed';

export function pushAvailability(): PushAvailability {
  if (
    typeof navigator === 'undefined' ||
    !('serviceWorker' in navigator) ||
    typeof PushManager === 'undefined' ||
    typeof Notification === 'undefined'
  ) {
    return 'unsupported';
  }
  if (Notification.permission === 'denied') return 'refused';
  return Notification.permission === 'granted' ? 'allowed' : 'ask';
}

const readKey = answerParser((value) => {
  const key = (value as { publicKey?: unknown } | null)?.publicKey;
  return typeof key === 'string' && /^[A-Za-z0-9_-]{80,100}$/.test(key) ? key : null;
});

function base64UrlBytes(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

function sameKey(a: ArrayBuffer | null | undefined, b: Uint8Array): boolean {
  if (!a || a.byteLength !== b.length) return false;
  const bytes = new Uint8Array(a);
  return bytes.every((byte, i) => byte === b[i]);
}

export class PushRefusedError extends Error {
  constructor() {
    super(
      'Notifications are turned off for Pipit in this browser. Allow them in the site settings, then try again.',
    );
  }
}

/**
 * This browser's push subscription, asking permission (call it from the person's click: browsers
 * refuse to ask otherwise). A subscription made with another server key is replaced: the push
 * service would refuse every message sent to it.
 */
async function browserSubscription(): Promise<PushSubscription> {
  if (pushAvailability() === 'unsupported') {
    throw new Error(
      'This browser cannot show notifications from an app. Try installing the app first.',
    );
  }
  if ((await Notification.requestPermission()) !== 'granted') throw new PushRefusedError();
  const serverKey = base64UrlBytes(await apiGet('/api/push/key', readKey));
  const registration = await navigator.serviceWorker.ready;
  let subscription = await registration.pushManager.getSubscription();
  if (subscription && !sameKey(subscription.options.applicationServerKey, serverKey)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  return (
    subscription ??
    (await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: serverKey,
    }))
  );
}

/** Subscribes this device for `appId` (from the person's click). */
export async function subscribeForApp(appId: string): Promise<void> {
  const subscription = await browserSubscription();
  await apiSend(
    'POST',
    '/api/push/subscriptions',
    { appId, deviceId: deviceId(), subscription: subscription.toJSON() },
    anyAnswer,
  );
}

/**
 * Subscribes this device for Pipit's own notifications, about the person's apps (from the
 * person's click; docs/product/reminders.md#creators-notifications).
 */
export async function subscribeForPipit(): Promise<void> {
  const subscription = await browserSubscription();
  await apiSend(
    'POST',
    '/api/push/platform-subscriptions',
    { deviceId: deviceId(), subscription: subscription.toJSON() },
    anyAnswer,
  );
}

/**
 * This device no longer wants Pipit's own notifications. The browser's subscription stays:
 * installed apps on this device may still use it. False when it had none.
 */
export async function unsubscribeForPipit(): Promise<boolean> {
  if (pushAvailability() === 'unsupported') return false;
  const registration = await navigator.serviceWorker.ready;
  const subscription = await registration.pushManager.getSubscription();
  if (!subscription) return false;
  await apiSend(
    'DELETE',
    '/api/push/platform-subscriptions',
    { endpoint: subscription.endpoint },
    anyAnswer,
  );
  return true;
}

/**
 * Tells the server this device no longer wants `appId`'s messages. The browser's subscription
 * stays: other apps on this device may still use it.
 */
export async function unsubscribeForApp(appId: string): Promise<void> {
  if (pushAvailability() === 'unsupported') return;
  const registration = await navigator.serviceWorker.ready;
  const subscription = await registration.pushManager.getSubscription();
  if (!subscription) return;
  await apiSend(
    'DELETE',
    '/api/push/subscriptions',
    { appId, endpoint: subscription.endpoint },
    anyAnswer,
  );
}

import { useSyncExternalStore } from 'react';
import { anyAnswer } from '@pipit/protocol';
import { apiSend } from '../../platform/api/request';

/**
 * The browser's install prompt, caught from the moment the page loads: Chromium fires
 * `beforeinstallprompt` once, often before React has rendered the install page, and never again
 * for that document. main.tsx imports this module for its side effect.
 */

/** Chromium's event (not in TypeScript's DOM library). */
interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

interface InstallPromptState {
  /** The saved prompt, for the app whose manifest this document was loaded with. */
  prompt: BeforeInstallPromptEvent | null;
  /** That app's id (from the manifest link the server put in the page), or null. */
  appId: string | null;
}

const MANIFEST_PATH = /^\/apps\/([^/]+)\/manifest\.webmanifest$/;
const INSTALLED_KEY = (appId: string) => `pipit:installed:${appId}`;

let state: InstallPromptState = { prompt: null, appId: null };
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

/** The app whose own manifest this document links (/apps/{id}/install and /pwa), if any. */
export function manifestAppId(): string | null {
  const href = document.querySelector('link[rel="manifest"]')?.getAttribute('href') ?? '';
  try {
    return MANIFEST_PATH.exec(new URL(href, window.location.href).pathname)?.[1] ?? null;
  } catch {
    return null;
  }
}

/** Remembers on this device that an app is installed (browsers rarely let a page ask later). */
export function rememberInstalled(appId: string): void {
  try {
    localStorage.setItem(INSTALLED_KEY(appId), String(Date.now()));
  } catch {
    // Storage unavailable: the state lasts for this page only.
  }
  notify();
}

export function wasInstalled(appId: string): boolean {
  try {
    return localStorage.getItem(INSTALLED_KEY(appId)) !== null;
  } catch {
    return false;
  }
}

if (typeof window !== 'undefined') {
  window.addEventListener('beforeinstallprompt', (event) => {
    const appId = manifestAppId();
    // Pipit's own manifest: leave the browser's usual install UI alone.
    if (!appId) return;
    // Keep it for the install page's button instead of the browser's mini-infobar.
    event.preventDefault();
    state = { prompt: event as BeforeInstallPromptEvent, appId };
    notify();
  });
  window.addEventListener('appinstalled', () => {
    const appId = manifestAppId();
    state = { prompt: null, appId: state.appId };
    if (!appId) return notify();
    rememberInstalled(appId);
    // Popularity counts installs (once per visitor, on the server); a failure is not worth retrying.
    apiSend('POST', `/api/apps/${appId}/events`, { kind: 'install' }, anyAnswer).catch(
      (error: unknown) => console.warn('Could not record the install:', error),
    );
  });
}

/** The saved prompt, if it belongs to `appId`'s manifest; follows changes. */
export function useInstallPrompt(appId: string): {
  prompt: BeforeInstallPromptEvent | null;
  /** This document was loaded with another manifest (opened from inside Pipit): reload first. */
  needsReload: boolean;
} {
  const current = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => state,
    () => state,
  );
  return {
    prompt: current.appId === appId ? current.prompt : null,
    needsReload: manifestAppId() !== appId,
  };
}

/** Asks the browser to install; resolves whether the person accepted. */
export async function promptInstall(prompt: BeforeInstallPromptEvent): Promise<boolean> {
  await prompt.prompt();
  const { outcome } = await prompt.userChoice;
  // A prompt can be shown once: after it, the browser fires a new event if it may ask again.
  state = { prompt: null, appId: state.appId };
  notify();
  return outcome === 'accepted';
}

/** Subscribes to "installed" changes made by this module (for useInstalled). */
export function onInstalledChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

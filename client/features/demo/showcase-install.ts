import { SHOWCASE_PWA } from '@pipit/protocol';
import { useSyncExternalStore } from 'react';

/**
 * Installing the showcase (`/demo1`, with its own manifest `/demo1.webmanifest`). The browser's
 * install prompt is kept when it fires while this page is open, so the page can offer a button;
 * where there is none (iOS Safari, or it fired before this code loaded) the page gives the steps.
 */

/** Chromium's event (not in TypeScript's DOM library). */
interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

let saved: BeforeInstallPromptEvent | null = null;
let installed = false;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

/** Whether this document was loaded with the showcase's manifest (a full load of /demo1). */
export function hasShowcaseManifest(): boolean {
  const href = document.querySelector('link[rel="manifest"]')?.getAttribute('href') ?? '';
  try {
    return new URL(href, location.href).pathname === SHOWCASE_PWA.manifest;
  } catch {
    return false;
  }
}

window.addEventListener('beforeinstallprompt', (event) => {
  if (!hasShowcaseManifest()) return;
  event.preventDefault();
  saved = event as BeforeInstallPromptEvent;
  notify();
});
window.addEventListener('appinstalled', () => {
  if (!hasShowcaseManifest()) return;
  installed = true;
  saved = null;
  notify();
});

const isStandalone = () =>
  window.matchMedia('(display-mode: standalone)').matches ||
  (navigator as Navigator & { standalone?: boolean }).standalone === true;

interface ShowcaseInstall {
  /** Running as the installed showcase, or just installed from this page. */
  isInstalled: boolean;
  /** The browser offers an install prompt now. */
  canPrompt: boolean;
}

let snapshot: ShowcaseInstall = { isInstalled: false, canPrompt: false };
function read(): ShowcaseInstall {
  const next = { isInstalled: installed || isStandalone(), canPrompt: saved !== null };
  if (next.isInstalled !== snapshot.isInstalled || next.canPrompt !== snapshot.canPrompt) {
    snapshot = next;
  }
  return snapshot;
}

export function useShowcaseInstall(): ShowcaseInstall {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    read,
    read,
  );
}

/** Shows the browser's install prompt; resolves whether the person accepted. */
export async function installShowcase(): Promise<boolean> {
  const prompt = saved;
  if (!prompt) return false;
  await prompt.prompt();
  const { outcome } = await prompt.userChoice;
  saved = null;
  notify();
  return outcome === 'accepted';
}

import { useRegisterSW } from 'virtual:pwa-register/react';
import { Button } from './button';
import { Toast } from './toast';

/** How often an open tab asks the server whether a new version of Pipit was deployed. */
const UPDATE_CHECK_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Registers the service worker and offers a new version when one is waiting. Updating is the
 * person's choice (registerType "prompt"): reloading on its own could lose what they are typing.
 */
export function UpdatePrompt() {
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    offlineReady: [offlineReady, setOfflineReady],
    updateServiceWorker,
  } = useRegisterSW({
    onRegisteredSW(_url, registration) {
      if (!registration) return;
      const check = () => {
        if (navigator.onLine) registration.update().catch(() => {});
      };
      setInterval(check, UPDATE_CHECK_INTERVAL_MS);
      document.addEventListener('visibilitychange', () => {
        if (document.visibilityState === 'visible') check();
      });
    },
    onRegisterError(error: unknown) {
      console.warn('Pipit could not set up offline support:', error);
    },
  });

  if (needRefresh) {
    return (
      <Toast
        actions={
          <>
            <Button size="small" onClick={() => void updateServiceWorker(true)}>
              Reload
            </Button>
            <Button size="small" variant="ghost" onClick={() => setNeedRefresh(false)}>
              Later
            </Button>
          </>
        }
      >
        A new version of Pipit is available. Reload to use it; nothing you have saved is lost.
      </Toast>
    );
  }
  if (offlineReady) {
    return (
      <Toast
        actions={
          <Button size="small" variant="ghost" onClick={() => setOfflineReady(false)}>
            OK
          </Button>
        }
      >
        Pipit is ready to work offline on this device.
      </Toast>
    );
  }
  return null;
}

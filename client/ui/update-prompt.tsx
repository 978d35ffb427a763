import type { ReactNode } from 'react';
import { useRegisterSW } from 'virtual:pwa-register/react';
import { Button } from './button';
import './update-prompt.css';

/** How often an open tab asks the server whether a new version of Pipit was deployed. */
const UPDATE_CHECK_INTERVAL_MS = 60 * 60 * 1000;

/** Pipit's own message, in the page's flow above everything: it never covers the page. */
function Message({
  label,
  children,
  actions,
}: {
  label: string;
  children: ReactNode;
  actions: ReactNode;
}) {
  return (
    <aside className="update-bar" aria-label={label}>
      <p className="update-bar__text" role="status">
        {children}
      </p>
      <div className="update-bar__actions">{actions}</div>
    </aside>
  );
}

/**
 * Registers the service worker and offers a new version when one is waiting. Updating is the
 * person's choice (registerType "prompt"): reloading on its own could lose what they are typing.
 * The message sits at the top of the page, in its flow (`app`: an installed app; `site`: Pipit's
 * pages): pinned as a toast, it covered forms' buttons and the app's own toasts.
 */
export function UpdatePrompt({ placement }: { placement: 'app' | 'site' }) {
  const label = placement === 'app' ? 'This app on this device' : 'Pipit on this device';
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
      <Message
        label={label}
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
      </Message>
    );
  }
  if (offlineReady) {
    return (
      <Message
        label={label}
        actions={
          <Button size="small" variant="ghost" onClick={() => setOfflineReady(false)}>
            OK
          </Button>
        }
      >
        {placement === 'app'
          ? 'This app now works offline on this device.'
          : 'Pipit is ready to work offline on this device.'}
      </Message>
    );
  }
  return null;
}

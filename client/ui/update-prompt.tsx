import type { ReactNode } from 'react';
import { useRegisterSW } from 'virtual:pwa-register/react';
import { Button } from './button';
import { Toast } from './toast';
import './update-prompt.css';

/** How often an open tab asks the server whether a new version of Pipit was deployed. */
const UPDATE_CHECK_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Pipit's own message, pinned to the bottom (the site), or in the page's flow above everything
 * (an installed app, whose own toasts, forms and tab bar are at the bottom: Pipit's must never
 * cover them, issue 38).
 */
function Message({
  inline,
  children,
  actions,
}: {
  inline: boolean;
  children: ReactNode;
  actions: ReactNode;
}) {
  if (!inline) return <Toast actions={actions}>{children}</Toast>;
  return (
    <aside className="update-bar" aria-label="This app on this device">
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
 * `inline`: in an installed app, the message sits in the page's flow instead of over the app.
 */
export function UpdatePrompt({ inline = false }: { inline?: boolean }) {
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
        inline={inline}
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
        inline={inline}
        actions={
          <Button size="small" variant="ghost" onClick={() => setOfflineReady(false)}>
            OK
          </Button>
        }
      >
        {inline
          ? 'This app now works offline on this device.'
          : 'Pipit is ready to work offline on this device.'}
      </Message>
    );
  }
  return null;
}

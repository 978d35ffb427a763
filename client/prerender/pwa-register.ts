/**
 * `virtual:pwa-register/react` for the build's pre-rendering (vite.config.ts): the plugin's hook
 * starts with nothing to say and registers the service worker in an effect, which a server render
 * never runs. So it renders what the browser's first render does.
 */
export function useRegisterSW(_options?: unknown) {
  const never = (_value: boolean) => {};
  return {
    needRefresh: [false, never] as const,
    offlineReady: [false, never] as const,
    updateServiceWorker: (_reload?: boolean) => Promise.resolve(),
  };
}

import { useSyncExternalStore } from 'react';

const DARK_QUERY = '(prefers-color-scheme: dark)';

function subscribe(onChange: () => void) {
  const list = window.matchMedia(DARK_QUERY);
  list.addEventListener('change', onChange);
  return () => list.removeEventListener('change', onChange);
}

/**
 * The colour mode an app renders in: its theme's, or for `auto` the device's, following changes
 * (an installed app follows the system, not Pipit's own light/dark choice).
 */
export function useAppColorMode(mode: 'light' | 'dark' | 'auto'): 'light' | 'dark' {
  const systemDark = useSyncExternalStore(
    subscribe,
    () => window.matchMedia(DARK_QUERY).matches,
    () => false,
  );
  if (mode !== 'auto') return mode;
  return systemDark ? 'dark' : 'light';
}

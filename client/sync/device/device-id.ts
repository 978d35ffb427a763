const STORAGE_KEY = 'pipit:device';

let cached: string | undefined;

/**
 * A random id for this browser on this device, kept in localStorage: presence shows one person on
 * one device once, however many tabs (or reloads whose old connection the server has not seen
 * close yet) they have. It names nothing about the person or the device.
 */
export function deviceId(): string {
  if (cached) return cached;
  try {
    cached = localStorage.getItem(STORAGE_KEY) ?? undefined;
    if (!cached) {
      cached = crypto.randomUUID();
      localStorage.setItem(STORAGE_KEY, cached);
    }
  } catch {
    // Storage refused (private mode): this tab is a device of its own.
    cached ??= crypto.randomUUID();
  }
  return cached;
}

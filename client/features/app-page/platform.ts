export type InstallPlatform = 'ios' | 'android' | 'desktop-chromium' | 'other';

/**
 * Which install steps fit this device, from the user agent (there is no feature to test: iOS has
 * no install API at all). A guess only decides which steps come first; all of them are shown.
 */
export function detectPlatform(userAgent = navigator.userAgent): InstallPlatform {
  const touchMac = /Macintosh/.test(userAgent) && navigator.maxTouchPoints > 1;
  if (/iPhone|iPad|iPod/.test(userAgent) || touchMac) return 'ios';
  if (/Android/.test(userAgent)) return 'android';
  if (/Edg\/|Chrome\//.test(userAgent) && !/OPR\/|Firefox\//.test(userAgent)) {
    return 'desktop-chromium';
  }
  return 'other';
}

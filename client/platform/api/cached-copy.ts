/**
 * Set by the service worker on a response it answered from its cache because the network failed:
 * the page says it is showing the copy last seen, whether the device is offline or the server is.
 */
export const CACHED_COPY_HEADER = 'X-Pipit-Cached-Copy';

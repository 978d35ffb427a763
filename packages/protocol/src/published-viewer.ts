/**
 * On `GET /api/published/{id}`: who the answer was for — an account id, or `anonymous`. A copy kept
 * on a device (the service worker's cache) is private to that viewer when the app is private.
 * Apart from the published app's schemas, so the service worker reads it without loading zod.
 */
export const PUBLISHED_VIEWER_HEADER = 'X-Pipit-Viewer';
export const ANONYMOUS_VIEWER = 'anonymous';

/**
 * The `/demo1` showcase (docs/product/routes.md: a showcase app anyone can use and install)
 * installs as its own app from static files in `public/`: this manifest (id, start_url and scope
 * `/demo1`) and these icons. Like an app's own pages, its shell must link them when the browser
 * parses the HTML (docs/library-notes.md#pwa), so the server and the service worker rewrite
 * `/demo1`'s shell with them.
 */
export const SHOWCASE_PWA = {
  page: '/demo1',
  manifest: '/demo1.webmanifest',
  icon192: '/icons/demo1-192.png',
  icon512: '/icons/demo1-512.png',
  maskable512: '/icons/demo1-maskable-512.png',
  appleTouch180: '/icons/demo1-apple-touch-180.png',
  /** The showcase theme's primary colour (meadow), as in the manifest. */
  themeColor: '#1a7f5a',
} as const;

/** What the PWA benchmark reads from the built client itself. */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { BUILD_STAMP_NAME, hashBuildInputs } from '../scripts/build-inputs.mjs';

/**
 * Whether the client in `clientDir` was built from the sources as they are now, by the same hash
 * scripts/pipit.mjs stamps a build with (null: no stamp, e.g. a build made another way).
 */
export function buildIsCurrent(root: string, clientDir: string): boolean | null {
  const stamp = path.join(clientDir, BUILD_STAMP_NAME);
  if (!existsSync(stamp)) return null;
  return readFileSync(stamp, 'utf8') === hashBuildInputs(root);
}

/** The JavaScript the service worker precaches (in the background, not for the page's render). */
export function precachedJs(clientDir: string): { files: number; gzipBytes: number } {
  const sw = readFileSync(path.join(clientDir, 'sw.js'), 'utf8');
  const files = [...sw.matchAll(/"url":"([^"]+\.js)"/g)].map((m) => m[1] ?? '');
  let gzipBytes = 0;
  for (const file of files) {
    gzipBytes += gzipSync(readFileSync(path.join(clientDir, file)), { level: 9 }).byteLength;
  }
  return { files: files.length, gzipBytes };
}

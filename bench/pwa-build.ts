/** What the PWA benchmark reads from the built client itself. */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** The build's inputs, as scripts/pipit.mjs hashes them into `.build-inputs`. */
const BUILD_INPUTS = ['client', 'packages', 'public', 'vite.config.ts', 'pnpm-lock.yaml'];

/**
 * Whether the client in `clientDir` was built from the sources as they are now, by the same hash
 * scripts/pipit.mjs stamps a build with (null: no stamp, e.g. a build made another way).
 */
export function buildIsCurrent(root: string, clientDir: string): boolean | null {
  const stamp = path.join(clientDir, '.build-inputs');
  if (!existsSync(stamp)) return null;
  const hash = createHash('sha256');
  const visit = (file: string) => {
    if (statSync(file).isDirectory()) {
      for (const name of readdirSync(file).sort()) {
        if (name !== 'node_modules' && name !== 'route-tree.gen.ts') visit(path.join(file, name));
      }
    } else {
      hash.update(path.relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
    }
  };
  for (const input of BUILD_INPUTS) visit(path.join(root, input));
  return readFileSync(stamp, 'utf8') === hash.digest('hex');
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

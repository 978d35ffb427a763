// What the client's build is made from, and their hash: scripts/pipit.mjs stamps each build with it
// (dist/client/.build-inputs) and builds again when it differs; the benches read the same stamp to
// say whether the build they measure is current. Only Node built-ins: it runs before any install.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** The build's inputs, relative to the repository's root. */
export const BUILD_INPUTS = [
  'client',
  'packages',
  'public',
  'vite.config.ts',
  'pnpm-lock.yaml',
  'scripts/prerender.mjs',
];

/** The stamp's file name, in the client's build directory. */
export const BUILD_STAMP_NAME = '.build-inputs';

/** The sha256 of every input file's path and bytes, in order (dependencies and the generated route tree left out). */
export function hashBuildInputs(root) {
  const hash = createHash('sha256');
  const visit = (file) => {
    if (statSync(file).isDirectory()) {
      for (const name of readdirSync(file).sort()) {
        if (name !== 'node_modules' && name !== 'route-tree.gen.ts') visit(path.join(file, name));
      }
    } else {
      hash.update(path.relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
    }
  };
  for (const input of BUILD_INPUTS) visit(path.join(root, input));
  return hash.digest('hex');
}

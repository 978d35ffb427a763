import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SKIP = new Set(['node_modules', 'dist', 'data', 'coverage', '.git']);
const TEXT = /\.(ts|tsx|mts|mjs|js|md|css|html|json|yaml)$/;

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name) || name.startsWith('.')) continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* files(full);
    else if (TEXT.test(name)) yield full;
  }
}

const relative = (file: string) => path.relative(ROOT, file);

/**
 * Comments and pages point at each other and at files of the tree; a file moved or renamed must
 * take its references along, or a reader follows a link to nothing.
 */
describe('references between the code and docs/', () => {
  it('every docs/… page cited anywhere exists', () => {
    const missing: string[] = [];
    for (const file of files(ROOT)) {
      const text = readFileSync(file, 'utf8');
      for (const [cited] of text.matchAll(/\bdocs\/[\w./-]*?\.md\b/g)) {
        if (!existsSync(path.join(ROOT, cited))) missing.push(`${relative(file)}: ${cited}`);
      }
    }
    expect(missing, 'pages cited but not in docs/').toEqual([]);
  });

  it('every source path a docs/ page names exists', () => {
    const missing: string[] = [];
    for (const file of files(path.join(ROOT, 'docs'))) {
      const text = readFileSync(file, 'utf8');
      const cited = /`((?:client|sync-server|packages|e2e|bench|scripts|public)\/[\w./$-]+)`/g;
      for (const [, name] of text.matchAll(cited)) {
        // A path may end in a folder (`client/sync/`) or hold a placeholder (`…`, `{id}`).
        if (/[…{*]/.test(name!)) continue;
        if (!existsSync(path.join(ROOT, name!))) missing.push(`${relative(file)}: ${name}`);
      }
    }
    expect(missing, 'paths named in docs/ that are not in the tree').toEqual([]);
  });
});

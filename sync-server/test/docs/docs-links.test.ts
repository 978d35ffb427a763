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
  it('every file path named anywhere in the tree (a comment, a README, a page) exists', () => {
    const missing: string[] = [];
    // A repository path with a file's extension, wherever it is written: `client/sync/core/socket.ts`.
    const cited =
      /(?<![\w@/.-])((?:client|sync-server|packages|e2e|bench|scripts|public|docs)\/[\w./$-]*[\w$-]\.(?:ts|tsx|mjs|css|html|md|json))\b/g;
    for (const file of files(ROOT)) {
      if (file.includes(`${path.sep}fixtures${path.sep}`)) continue;
      const text = readFileSync(file, 'utf8');
      for (const [, name] of text.matchAll(cited)) {
        if (!existsSync(path.join(ROOT, name!))) missing.push(`${relative(file)}: ${name}`);
      }
    }
    expect(missing, 'paths named in the tree that are not in it').toEqual([]);
  });

  it('every file and folder a folder’s README names exists', () => {
    // A README beside the code names its files as they are seen from it (`documents.ts`,
    // `visitor-data/`), from a folder above it (`platform/`), or from its package's src/.
    const missing: string[] = [];
    for (const file of files(ROOT)) {
      if (path.basename(file) !== 'README.md' || file.startsWith(path.join(ROOT, 'docs'))) continue;
      if (path.dirname(file) === ROOT) continue;
      const text = readFileSync(file, 'utf8');
      for (const [, name] of text.matchAll(/`([\w.$-]+(?:\/[\w.$-]+)*(?:\.(?:ts|tsx|css)|\/))`/g)) {
        const places: string[] = [];
        for (let dir = path.dirname(file); dir.startsWith(ROOT); dir = path.dirname(dir)) {
          places.push(dir, path.join(dir, 'src'));
          if (dir === ROOT) break;
        }
        if (!places.some((dir) => existsSync(path.join(dir, name!)))) {
          missing.push(`${relative(file)}: ${name}`);
        }
      }
    }
    expect(missing, 'names in a folder README that are not in the tree').toEqual([]);
  });
});

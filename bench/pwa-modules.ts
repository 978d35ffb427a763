/**
 * What the JavaScript of a page is made of: the client is built again, exactly as vite.config.ts
 * builds it but into a temporary directory and with hidden source maps (the code is unchanged: no
 * sourceMappingURL comment), and each minified byte of the chunks the page loaded is attributed to
 * its source file through the map, as source-map-explorer does. Files are grouped by package
 * (node_modules) or workspace folder.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, loadConfigFromFile, type PluginOption, type Rolldown } from 'vite';
import { INSTALLED_APP_MODE } from '../vite.config';

const ROOT = path.resolve(import.meta.dirname, '..');
const SKIPPED_PLUGINS = new Set(['pipit-precompress', 'vite-plugin-pwa:build']);

export interface Contributor {
  name: string;
  /** Minified bytes (UTF-16 code units of the output, close to bytes for this ASCII code). */
  minified: number;
  /** The group's share of its chunks' gzip sizes, by minified bytes. */
  gzipShare: number;
}

export interface ModuleReport {
  buildMs: number;
  /** Served chunks the analysis build reproduced (but for hashes); others are matched by name. */
  matched: number;
  unmatched: string[];
  groups: Contributor[];
  files: Contributor[];
  /** Each served chunk's own groups, largest chunk first: which chunk pulls in what. */
  chunks: Array<{ file: string; gzip: number; groups: Contributor[] }>;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64_VALUE = new Map([...BASE64].map((char, i) => [char, i]));

/** Source-map VLQ: the fields of one segment. */
function decodeSegment(segment: string): number[] {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = BASE64_VALUE.get(char) ?? 0;
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
      continue;
    }
    values.push(value & 1 ? -(value >>> 1) : value >>> 1);
    value = 0;
    shift = 0;
  }
  return values;
}

/** Bytes of `code` per source index (-1: not mapped), from the map's segments. */
function bytesPerSource(code: string, mappings: string): Map<number, number> {
  const sizes = new Map<number, number>();
  const add = (source: number, bytes: number) =>
    bytes > 0 && sizes.set(source, (sizes.get(source) ?? 0) + bytes);
  const lines = code.split('\n');
  let source = 0;
  mappings.split(';').forEach((lineMappings, lineIndex) => {
    const line = lines[lineIndex] ?? '';
    let column = 0;
    let lastColumn = 0;
    let lastSource = -1;
    for (const segment of lineMappings.split(',')) {
      if (!segment) continue;
      const fields = decodeSegment(segment);
      column += fields[0] ?? 0;
      add(lastSource, column - lastColumn);
      lastColumn = column;
      if (fields.length >= 4) {
        source += fields[1] ?? 0;
        lastSource = source;
      } else {
        lastSource = -1;
      }
    }
    add(lastSource, line.length + 1 - lastColumn);
  });
  return sizes;
}

/** `node_modules/.pnpm/x@1/node_modules/@scope/name/…` → `@scope/name`; workspace files by folder. */
function groupOf(file: string): string {
  const modules = file.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const [first = '', second = ''] = file.slice(modules + 'node_modules/'.length).split('/');
    return first.startsWith('@') ? `${first}/${second}` : first;
  }
  const relative = path.relative(ROOT, file).replaceAll(path.sep, '/');
  const parts = relative.split('/');
  if (parts[0] === 'packages') return `packages/${parts[1] ?? ''}`;
  if (parts[0] === 'client' && parts.length > 2) return `client/${parts[1]}/${parts[2]}`;
  return parts.length > 1 ? `${parts[0]}/${parts[1]}` : relative;
}

/** A package's files without the store prefix: `@tanstack/router-core/dist/esm/router.js`. */
function shortPath(file: string): string {
  const modules = file.lastIndexOf('node_modules/');
  if (modules >= 0) return file.slice(modules + 'node_modules/'.length);
  return path.relative(ROOT, file).replaceAll(path.sep, '/');
}

const plugins = (option: PluginOption): PluginOption[] =>
  Array.isArray(option) ? option.flatMap(plugins) : [option];

async function buildWithMaps(outDir: string): Promise<Rolldown.OutputChunk[]> {
  // As scripts/pipit.mjs builds: the installed app on its own, then the site beside it.
  const chunks: Rolldown.OutputChunk[] = [];
  for (const mode of [INSTALLED_APP_MODE, 'production']) {
    const loaded = await loadConfigFromFile(
      { command: 'build', mode },
      path.join(ROOT, 'vite.config.ts'),
    );
    if (!loaded) throw new Error('vite.config.ts could not be loaded');
    const { config } = loaded;
    // Not wanted for a throwaway build: precompression writes into dist/client itself, and the
    // service worker's build logs whatever logLevel says. Neither changes the page's chunks.
    const kept = plugins(config.plugins ?? []).filter(
      (p) => !(p && typeof p === 'object' && 'name' in p && SKIPPED_PLUGINS.has(p.name)),
    );
    const output = await build({
      ...config,
      configFile: false,
      mode,
      root: path.resolve(ROOT, config.root ?? '.'),
      logLevel: 'silent',
      plugins: kept,
      build: {
        ...config.build,
        outDir,
        emptyOutDir: mode === INSTALLED_APP_MODE,
        sourcemap: 'hidden',
      },
    });
    chunks.push(
      ...(Array.isArray(output) ? output : [output]).flatMap((result) =>
        'output' in result
          ? result.output.filter((item): item is Rolldown.OutputChunk => item.type === 'chunk')
          : [],
      ),
    );
  }
  return chunks;
}

const top = (sizes: Sizes): Contributor[] =>
  [...sizes.entries()]
    .map(([name, size]) => ({ name, ...size }))
    .sort((a, b) => b.gzipShare - a.gzipShare);

/** Chunk names carry an 8-character content hash, which source maps change: compared without. */
const HASHED = /-[\w-]{8}\.(js|css)\b/g;
const withoutHashes = (text: string) => text.replace(HASHED, '-#.$1');

/**
 * The analysis build's chunk for a served file: same name and the same code but for chunk hashes
 * (`exact`), or else the same name and the closest size (dist/client is older than the sources).
 */
function counterpart(
  chunks: Rolldown.OutputChunk[],
  file: string,
  served: string | null,
): { chunk: Rolldown.OutputChunk; exact: boolean } | null {
  const stem = withoutHashes(file);
  const named = chunks.filter((c) => withoutHashes(c.fileName) === stem);
  if (served !== null) {
    const code = withoutHashes(served);
    const same = named.find((c) => withoutHashes(c.code) === code);
    if (same) return { chunk: same, exact: true };
  }
  const size = served?.length ?? 0;
  const closest = named.sort(
    (a, b) => Math.abs(a.code.length - size) - Math.abs(b.code.length - size),
  )[0];
  return closest ? { chunk: closest, exact: false } : null;
}

type Sizes = Map<string, { minified: number; gzipShare: number }>;

function addTo(into: Sizes, key: string, minified: number, gzipShare: number) {
  const sum = into.get(key) ?? { minified: 0, gzipShare: 0 };
  into.set(key, { minified: sum.minified + minified, gzipShare: sum.gzipShare + gzipShare });
}

/**
 * Attributes the given built files (paths relative to `clientDir`, e.g. `assets/x.js`) to sources.
 * A served file the analysis build does not reproduce (dist/client is older than the sources) is
 * attributed through the chunk of the same name, and listed as unmatched.
 */
export async function attributeModules(clientDir: string, files: string[]): Promise<ModuleReport> {
  const outDir = mkdtempSync(path.join(tmpdir(), 'pipit-bench-build-'));
  const started = performance.now();
  try {
    const chunks = await buildWithMaps(outDir);
    const buildMs = performance.now() - started;
    const groups: Sizes = new Map();
    const sources: Sizes = new Map();
    const perChunk: Array<{ file: string; gzip: number; own: Sizes }> = [];
    const unmatched: string[] = [];
    let matched = 0;
    for (const file of files) {
      let served: string | null = null;
      try {
        served = readFileSync(path.join(clientDir, file), 'utf8');
      } catch {
        // Not a file of the build (e.g. a script the server makes): nothing to attribute.
      }
      const found = counterpart(chunks, file, served);
      if (!found?.chunk.map) {
        // Copied from public/ as it is (the human-check scripts): counted whole.
        if (served !== null) {
          const gzip = gzipSync(served, { level: 9 }).byteLength;
          addTo(groups, 'public/ (not bundled)', served.length, gzip);
          addTo(sources, `public/${file}`, served.length, gzip);
        } else {
          unmatched.push(`${file} (not found)`);
        }
        continue;
      }
      const { chunk, exact } = found;
      if (exact) matched++;
      else unmatched.push(file);
      const map = chunk.map!;
      const gzip = gzipSync(chunk.code, { level: 9 }).byteLength;
      const own: Sizes = new Map();
      perChunk.push({ file, gzip, own });
      for (const [index, bytes] of bytesPerSource(chunk.code, map.mappings)) {
        const source = map.sources[index];
        const gzipShare = (gzip * bytes) / chunk.code.length;
        const absolute = source ? path.resolve(outDir, path.dirname(chunk.fileName), source) : '';
        const group = source ? groupOf(absolute) : '(unmapped)';
        addTo(groups, group, bytes, gzipShare);
        addTo(own, group, bytes, gzipShare);
        addTo(sources, source ? shortPath(absolute) : '(unmapped)', bytes, gzipShare);
      }
    }
    return {
      buildMs,
      matched,
      unmatched,
      groups: top(groups),
      files: top(sources),
      chunks: perChunk
        .map(({ file, gzip, own }) => ({ file, gzip, groups: top(own) }))
        .sort((a, b) => b.gzip - a.gzip),
    };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

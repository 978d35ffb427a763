import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { createId } from '@pipit/protocol';
import { openSqliteStorage } from '../../src/storage/sqlite';
import { acknowledged, connectProvider, type TestProvider } from '../support/provider';

const ROOT = path.resolve(import.meta.dirname, '../../..');

describe('SIGTERM', () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => cleanups.splice(0).forEach((c) => c()));

  it('flushes pending document stores before the process exits', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'pipit-sigterm-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'sync-server/test/fixtures/serve-with-open-documents.ts'],
      {
        cwd: ROOT,
        env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    cleanups.push(() => child.kill('SIGKILL'));
    const lines: Array<{ msg: string; url?: string }> = [];
    const url = await new Promise<string>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`server exited early with ${code}`)));
      createInterface({ input: child.stdout! }).on('line', (line) => {
        const entry = JSON.parse(line) as { msg: string; url?: string };
        lines.push(entry);
        if (entry.url) resolve(entry.url.replace('localhost', '127.0.0.1'));
      });
    });

    // The store debounce is 2 s: the edit is acknowledged but not stored when SIGTERM arrives.
    const name = `app/${createId()}`;
    const client: TestProvider = connectProvider({ url, name });
    cleanups.push(() => client.destroy());
    expect(await client.ready).toBe(true);
    const titles = Array.from({ length: 20 }, (_, i) => `edit ${i}`);
    for (const title of titles) client.doc.getArray<string>('edits').push([title]);
    await acknowledged(client.provider);

    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(lines.some((l) => l.msg === 'shutting down')).toBe(true);

    const storage = await openSqliteStorage(dataDir);
    try {
      const stored = new Y.Doc();
      Y.applyUpdate(stored, (await storage.documents.load(name))!);
      expect(stored.getArray('edits').toArray()).toEqual(titles);
    } finally {
      await storage.close();
    }
  });
});

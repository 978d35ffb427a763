import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig } from '../../src/config';
import { type CreateServerOptions, createServer, type PipitServer } from '../../src/create-server';
import { createLogger } from '../../src/logger';

export const ROOT_DIR = path.resolve(import.meta.dirname, '../../..');
export const CLIENT_DIR = path.join(ROOT_DIR, 'dist/client');

export interface LogLine {
  level: string;
  msg: string;
  digest?: string;
  err?: { message: string; stack?: string };
  [key: string]: unknown;
}

export interface RunningPipit {
  /** http://127.0.0.1:{port} */
  url: string;
  port: number;
  server: PipitServer;
  dataDir: string;
  /** Every JSON log line the server wrote, parsed. */
  logs: LogLine[];
  /** Graceful shutdown, then the data directory is removed (unless it was given). */
  close(): Promise<void>;
}

export type StartOptions = Partial<Omit<CreateServerOptions, 'config' | 'logger'>> & {
  clientDir?: string;
  dataDir?: string;
  port?: number;
  env?: Record<string, string>;
};

/**
 * The real Pipit server, in process, on a free port (or the given one), with its own SQLite data
 * directory unless storage is given, and its log lines captured for assertions. Options replace
 * parts exactly as production code allows (storage, access policy, client directory).
 */
export async function startPipit(options: StartOptions = {}): Promise<RunningPipit> {
  const { clientDir, dataDir: givenDataDir, port = 0, env = {}, ...serverOptions } = options;
  const dataDir = givenDataDir ?? mkdtempSync(path.join(tmpdir(), 'pipit-test-'));
  const logs: LogLine[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim()) logs.push(JSON.parse(line) as LogLine);
      }
      if (process.env.PIPIT_TEST_LOGS) process.stderr.write(chunk);
      done();
    },
  });
  const config = loadConfig({
    DATA_DIR: dataDir,
    CLIENT_DIR: clientDir ?? CLIENT_DIR,
    LOG_LEVEL: 'info',
    SHUTDOWN_TIMEOUT_MS: '5000',
    ...env,
  });
  const server = await createServer({
    ...serverOptions,
    config,
    logger: createLogger('info', sink),
  });
  const listening = await server.listen(port, '127.0.0.1');
  return {
    url: `http://127.0.0.1:${listening.port}`,
    port: listening.port,
    server,
    dataDir,
    logs,
    async close() {
      await server.close();
      if (!givenDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

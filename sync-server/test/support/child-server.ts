import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { ROOT_DIR } from './start-server';

/** The production entry with every document open to editors (see the fixture's comment). */
const FIXTURE = path.join('sync-server', 'test', 'fixtures', 'serve-with-open-documents.ts');
/** The production entry sending Web Push to a stand-in in the test's process (see its comment). */
export const PUSH_FIXTURE = path.join(
  'sync-server',
  'test',
  'fixtures',
  'serve-with-push-stand-in.ts',
);

export interface ChildPipit {
  /** http://127.0.0.1:{port} */
  url: string;
  child: ChildProcess;
  /** Every JSON log line the process wrote to stdout, parsed. */
  lines: Array<{ msg: string; [key: string]: unknown }>;
  /** Resolves with the exit code (null when a signal ended it) once the process is gone. */
  exited: Promise<number | null>;
  /** Sends `signal` and resolves once the process is gone. */
  stop(signal: NodeJS.Signals): Promise<number | null>;
}

/**
 * The real server as a separate process (src/run-server.ts through the fixture), on a free port,
 * configured only through its environment (DATA_DIR, DATABASE_URL, …) as in production. Tests that
 * kill it with SIGKILL need a process of its own: nothing in the test's process may help it.
 */
export async function spawnPipit(
  env: Record<string, string>,
  fixture = FIXTURE,
): Promise<ChildPipit> {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture], {
    cwd: ROOT_DIR,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const lines: ChildPipit['lines'] = [];
  const url = await new Promise<string>((resolve, reject) => {
    void exited.then((code) =>
      reject(new Error(`the server exited early with ${code}:\n${stderr}`)),
    );
    createInterface({ input: child.stdout! }).on('line', (line) => {
      let entry: ChildPipit['lines'][number];
      try {
        entry = JSON.parse(line) as ChildPipit['lines'][number];
      } catch {
        return;
      }
      lines.push(entry);
      if (typeof entry.url === 'string') resolve(entry.url.replace('localhost', '127.0.0.1'));
    });
  });
  return {
    url,
    child,
    lines,
    exited,
    stop(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

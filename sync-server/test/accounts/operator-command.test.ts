import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/accounts/clock';
import { createOperators } from '../../src/accounts/operators';
import { runOperatorCommand } from '../../src/operator-command';
import { openSqliteStorage } from '../../src/storage/sqlite';
import type { Storage } from '../../src/storage/types';
import { ENGINES, openEngine } from '../support/engines';
import { ROOT_DIR } from '../support/start-server';
import { insertUser } from '../support/users';

describe.each(ENGINES)('npm run operator on %s', (engine) => {
  let storage: Storage;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ storage, cleanup } = await openEngine(engine));
  });
  afterAll(async () => {
    await storage.close();
    await cleanup();
  });

  async function run(...args: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runOperatorCommand(args, {
      operators: createOperators({ storage, clock: systemClock }),
      output: { log: (line) => out.push(line), error: (line) => err.push(line) },
    });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  it('adds an account by name, storing its id, and lists it', async () => {
    expect(await run('list')).toMatchObject({ code: 0, out: /No operators yet/ });
    const ops = await insertUser(storage, {
      username: 'ops',
      email: 'ops@example.org',
      emailVerifiedAt: Date.now(),
    });
    const added = await run('add', 'OPS');
    expect(added).toMatchObject({ code: 0, err: '' });
    expect(added.out).toContain(ops.id);
    expect(await storage.operators.list()).toEqual([
      { userId: ops.id, addedAt: expect.any(Number) },
    ]);
    expect(await run('add', 'ops')).toMatchObject({ code: 0, out: /already an operator/ });
    expect((await run('list')).out).toMatch(
      new RegExp(`^ops <ops@example.org>  account ${ops.id}`),
    );

    // The role stays with the account under its next name.
    await storage.users.update(ops.id, { username: 'ops_renamed' });
    expect((await run('list')).out).toMatch(/^ops_renamed </);
    expect(await createOperators({ storage, clock: systemClock }).isOperator(ops.id)).toBe(true);
  });

  it('refuses an account without a confirmed email, and a name no account has', async () => {
    await insertUser(storage, { username: 'newbie', email: 'newbie@example.org' });
    const refused = await run('add', 'newbie');
    expect(refused).toMatchObject({ code: 1, out: '' });
    expect(refused.err).toMatch(/newbie has not confirmed their email address/);
    expect(await run('add', 'nobody_here')).toMatchObject({ code: 1, err: /No account is called/ });
    expect((await storage.operators.list()).map((o) => o.userId)).not.toContain(
      (await storage.users.findByUsername('newbie'))!.id,
    );
  });

  it('removes by current name, or by id once the account is deleted', async () => {
    expect(await run('remove', 'ops_renamed')).toMatchObject({ code: 0, out: /no longer/ });
    expect(await run('remove', 'ops_renamed')).toMatchObject({ code: 1, err: /not an operator/ });

    const gone = await insertUser(storage, { username: 'gone_op', emailVerifiedAt: 1 });
    await run('add', 'gone_op');
    await storage.users.markDeleted(gone.id, Date.now());
    expect((await run('list')).out).toMatch(
      new RegExp(
        `^\\(deleted account\\)  account ${gone.id}, since .*not active: account deleted$`,
      ),
    );
    expect(await run('remove', 'gone_op')).toMatchObject({ code: 1 });
    expect(await run('remove', gone.id)).toMatchObject({ code: 0 });
    expect(await storage.operators.list()).toEqual([]);
  });

  it.each([[[]], [['add']], [['add', ' ']], [['frob']], [['list', 'x']], [['add', 'a', 'b']]])(
    'prints its usage for %j and changes nothing',
    async (args) => {
      expect(await run(...args)).toMatchObject({
        code: 2,
        out: '',
        err: /^Usage: npm run operator/,
      });
    },
  );
});

describe('the operator command, run as the operator runs it', () => {
  const exec = promisify(execFile);
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'pipit-operator-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  /** `npm run operator -- …` is `node scripts/pipit.mjs operator …`, with only the given settings. */
  async function cli(args: string[], env: Record<string, string> = {}) {
    try {
      const { stdout, stderr } = await exec(
        process.execPath,
        [path.join(ROOT_DIR, 'scripts/pipit.mjs'), 'operator', ...args],
        {
          cwd: ROOT_DIR,
          env: {
            PATH: process.env.PATH ?? '',
            HOME: process.env.HOME ?? '',
            DATA_DIR: dataDir,
            ...env,
          },
          timeout: 60_000,
        },
      );
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  }

  it('makes an account in DATA_DIR’s database an operator, and refuses OPERATORS', async () => {
    const before = await openSqliteStorage(dataDir);
    const ops = await insertUser(before, { username: 'cli_ops', emailVerifiedAt: Date.now() });
    await before.close();

    const added = await cli(['add', 'cli_ops']);
    expect(added).toMatchObject({ code: 0, stdout: /cli_ops .* is now an operator/ });
    expect((await cli(['list'])).stdout).toMatch(/^cli_ops </);

    const refused = await cli(['list'], { OPERATORS: 'cli_ops' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/OPERATORS: .*npm run operator -- add USERNAME/);

    const after = await openSqliteStorage(dataDir);
    try {
      expect((await after.operators.list()).map((o) => o.userId)).toEqual([ops.id]);
    } finally {
      await after.close();
    }
  }, 120_000);
});

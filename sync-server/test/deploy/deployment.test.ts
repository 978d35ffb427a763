import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import AjvModule from 'ajv';
import { validate as validateDockerfile } from 'dockerfile-utils';
import { parse as parseYaml } from 'yaml';
import { freePort, haproxyConfig } from '../../src/cluster/launch';
import { loadConfig } from '../../src/config';
import { ROOT_DIR } from '../support/start-server';

/*
 * What docs/deployment.md tells people to copy, checked on a machine with no Docker engine
 * (README.md beside this file): each file through the real tool or schema that judges it, then the
 * command line the image and the systemd unit start, run here.
 */

const read = (file: string) => readFileSync(path.join(ROOT_DIR, file), 'utf8');
const cleanups: Array<() => void> = [];
afterAll(() => {
  for (const cleanup of cleanups) cleanup();
});

/** A Dockerfile's instructions, continuation lines joined and comments left out, by stage. */
function dockerStages(text: string) {
  const instructions = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [keyword = '', ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    });
  const stages: Array<typeof instructions> = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') stages.push([]);
    stages.at(-1)?.push(instruction);
  }
  return stages;
}

/** Starts `command` as a service manager would, waits for /api/health, and returns its handle. */
async function startCommand(command: string[], cwd: string, env: Record<string, string>) {
  const [file, ...args] = command;
  const child = spawn(file!, args, { cwd, env: { ...process.env, ...env }, stdio: 'pipe' });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  cleanups.push(() => child.kill('SIGKILL'));
  const url = `http://127.0.0.1:${env.PORT}`;
  await expect
    .poll(
      async () => {
        if (child.exitCode !== null) throw new Error(`it exited:\n${output}`);
        return (await fetch(`${url}/api/health`).catch(() => null))?.status;
      },
      { timeout: 60_000, interval: 200 },
    )
    .toBe(200);
  return {
    url,
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

const dataDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'pipit-deploy-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

describe('the Dockerfile', () => {
  const text = read('Dockerfile');
  const stages = dockerStages(text);
  const final = stages.at(-1)!;
  const finalOf = (keyword: string) => final.filter((i) => i.keyword === keyword);

  it('passes dockerfile-utils’ validation, with nothing to warn about', () => {
    expect(validateDockerfile(text).map((d) => `${d.range.start.line + 1}: ${d.message}`)).toEqual(
      [],
    );
  });

  it('builds in one stage and runs from a second, from pinned images, as a user who is not root', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const [from] of stages) {
      const image = from!.args.split(/\s+/)[0]!;
      expect(image, 'a base image with a version').toMatch(/^[\w./-]+:\d[\w.-]*$/);
      expect(image).not.toMatch(/:latest$/);
    }
    expect(stages[0]!.some((i) => i.args.includes('scripts/pipit.mjs build'))).toBe(true);
    expect(final.some((i) => i.keyword === 'COPY' && i.args.includes('--from='))).toBe(true);
    const user = finalOf('USER').at(-1)?.args;
    expect(user).toBeDefined();
    expect(['root', '0']).not.toContain(user!.split(':')[0]);
    // No ADD (it fetches and unpacks), and every file copied from the context is there.
    expect(stages.flat().filter((i) => i.keyword === 'ADD')).toEqual([]);
    for (const copy of stages
      .flat()
      .filter((i) => i.keyword === 'COPY' && !/--from/.test(i.args))) {
      const sources = copy.args
        .split(/\s+/)
        .filter((a) => !a.startsWith('--'))
        .slice(0, -1);
      for (const source of sources.filter((s) => s !== '.')) {
        expect(existsSync(path.join(ROOT_DIR, source)), source).toBe(true);
      }
    }
    // What the build context leaves out: what the image makes itself, data, history.
    const ignored = read('.dockerignore').split('\n');
    for (const entry of ['.git', 'node_modules', 'dist', 'data']) expect(ignored).toContain(entry);
  });

  it('starts the server with its command and its settings, and its health check passes', async () => {
    const command = JSON.parse(finalOf('CMD').at(-1)!.args) as string[];
    const healthcheck = finalOf('HEALTHCHECK').at(-1)!.args;
    expect(healthcheck).toMatch(/\/api\/health/);
    const check = JSON.parse(healthcheck.slice(healthcheck.indexOf('CMD') + 3)) as string[];
    // The image's ENV, with the data directory and port of this machine.
    const env = Object.fromEntries(
      finalOf('ENV')
        .flatMap((i) => i.args.split(/\s+/))
        .map((pair) => pair.split('=') as [string, string]),
    );
    expect(env).toMatchObject({ NODE_ENV: 'production', DATA_DIR: '/data' });
    const port = String(await freePort());
    const server = await startCommand(command, ROOT_DIR, {
      ...env,
      DATA_DIR: dataDir(),
      PORT: port,
    });
    const [file, ...args] = check;
    const ran = spawnSync(file!, args, { env: { ...process.env, PORT: port }, timeout: 10_000 });
    expect(ran.status, ran.stderr.toString()).toBe(0);
    expect(await server.stop()).toBe(0);
    // And it fails when nothing answers.
    const down = spawnSync(file!, args, { env: { ...process.env, PORT: port }, timeout: 10_000 });
    expect(down.status).toBe(1);
  }, 90_000);
});

describe('compose.yaml', () => {
  const settings = {
    POSTGRES_PASSWORD: 'a-long-random-password',
    PUBLIC_ORIGIN: 'https://pipit.example.org',
  };
  /** Compose's interpolation of ${NAME}, ${NAME:-default} and ${NAME:?error}. */
  const interpolate = (text: string, env: Record<string, string>) =>
    text.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_, name: string, op?: string, rest = '') => {
      if (env[name] !== undefined) return env[name];
      if (op === '?') throw new Error(`${name}: ${rest}`);
      return op === '-' ? rest : '';
    });
  const compose = parseYaml(interpolate(read('compose.yaml'), settings), { merge: true }) as {
    services: Record<string, Record<string, unknown>>;
    volumes: Record<string, unknown>;
  };

  it('is a valid Compose file (the Compose Specification’s schema)', () => {
    const Ajv = (AjvModule as unknown as { default?: typeof AjvModule }).default ?? AjvModule;
    const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
    // Draft-07, named by its https address, which Ajv knows by its http one.
    const { $schema, ...schema } = JSON.parse(
      readFileSync(path.join(import.meta.dirname, 'compose-spec.json'), 'utf8'),
    ) as { $schema: string };
    expect($schema).toBe('https://json-schema.org/draft-07/schema');
    const valid = ajv.validate(schema, compose);
    expect(ajv.errors ?? [], JSON.stringify(ajv.errors)).toEqual([]);
    expect(valid).toBe(true);
  });

  it('says which settings are missing', () => {
    expect(() => interpolate(read('compose.yaml'), {})).toThrow(/POSTGRES_PASSWORD/);
  });

  it('runs PostgreSQL, Redis, two Pipit instances and HAProxy, each instance’s settings valid', () => {
    const { services } = compose;
    expect(Object.keys(services).sort()).toEqual(
      ['haproxy', 'pipit-1', 'pipit-2', 'postgres', 'redis'].sort(),
    );
    const names = new Set<string>();
    for (const name of ['pipit-1', 'pipit-2']) {
      const service = services[name]! as {
        build: string;
        environment: Record<string, string>;
        depends_on: Record<string, { condition: string }>;
        volumes: string[];
      };
      expect(service.build).toBe('.');
      // Pipit's own reading of the settings: a bad value would stop the instance at start.
      const config = loadConfig(service.environment, '/app');
      expect(config.databaseUrl).toMatch(/@postgres:5432\//);
      expect(config.redis?.url).toBe('redis://redis:6379');
      expect(config.trustProxy).toBe(true);
      expect(config.publicOrigin).toBe(settings.PUBLIC_ORIGIN);
      expect(config.backups).toMatchObject({ dir: '/backups', schedule: '30 3 * * *', keep: 7 });
      names.add(config.instanceName);
      expect(service.depends_on).toEqual({
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
      });
      for (const volume of service.volumes) {
        expect(Object.keys(compose.volumes)).toContain(volume.split(':')[0]);
      }
    }
    expect([...names].sort()).toEqual(['pipit-1', 'pipit-2']);
    // HAProxy's files are the repository's.
    const haproxy = services.haproxy as { volumes: string[] };
    for (const volume of haproxy.volumes) {
      expect(existsSync(path.join(ROOT_DIR, volume.split(':')[0]!))).toBe(true);
    }
    // The example settings file names every setting the file requires.
    const example = read('deploy/compose.env.example');
    for (const name of Object.keys(settings)) expect(example).toMatch(new RegExp(`^${name}=`, 'm'));
  });
});

describe('HAProxy’s configuration for compose.yaml', () => {
  const text = read('deploy/haproxy/haproxy.cfg');

  it('is accepted by haproxy -c', () => {
    // The error page where this repository has it rather than the container's path.
    const dir = dataDir();
    const file = path.join(dir, 'haproxy.cfg');
    writeFileSync(
      file,
      text.replace(
        /errorfile 503 \S+/,
        `errorfile 503 ${path.join(ROOT_DIR, 'deploy/haproxy/pipit-unavailable.http')}`,
      ),
    );
    const haproxy = process.env.HAPROXY_PATH ?? '/usr/sbin/haproxy';
    const checked = spawnSync(haproxy, ['-c', '-f', file], { encoding: 'utf8' });
    expect(checked.status, `${checked.stdout}${checked.stderr}`).toBe(0);
  });

  it('has every setting of the one `npm run cluster` runs and its tests check', () => {
    const lines = (config: string) => config.split('\n').map((l) => l.trim());
    const ours = new Set(lines(text));
    const cluster = lines(haproxyConfig(8080, [{ name: 'pipit-1', port: 8081 }])).filter(
      (line) => line !== '' && !/^(bind|server|errorfile) /.test(line),
    );
    expect(cluster.filter((line) => !ours.has(line) && !line.startsWith('default-server'))).toEqual(
      [],
    );
    const checks = cluster.find((line) => line.startsWith('default-server'))!;
    expect([...ours].some((line) => line.startsWith(checks))).toBe(true);
    expect(text).toMatch(/^ {2}server pipit-1 pipit-1:8080 check$/m);
    expect(text).toMatch(/^ {2}server pipit-2 pipit-2:8080 check$/m);
  });
});

describe('the systemd unit', () => {
  const unitFile = path.join(ROOT_DIR, 'deploy/systemd/pipit.service');
  const service = Object.fromEntries(
    read('deploy/systemd/pipit.service')
      .split(/^\[Service\]$/m)[1]!
      .split(/^\[/m)[0]!
      .split('\n')
      .filter((line) => /^\w+=/.test(line))
      .reduce<Array<[string, string[]]>>((pairs, line) => {
        const [key, ...value] = line.split('=');
        const found = pairs.find(([k]) => k === key);
        if (found) found[1].push(value.join('='));
        else pairs.push([key!, [value.join('=')]]);
        return pairs;
      }, []),
  );

  it('is accepted by systemd-analyze verify', () => {
    const verified = spawnSync('systemd-analyze', ['verify', unitFile], { encoding: 'utf8' });
    expect(`${verified.stdout}${verified.stderr}`).toBe('');
    expect(verified.status).toBe(0);
  });

  it('starts the server with its command line and settings, which stops cleanly on SIGTERM', async () => {
    expect(service.WorkingDirectory).toEqual(['/opt/pipit']);
    expect(service.User).toEqual(['pipit']);
    const env = Object.fromEntries(
      service.Environment!.map((pair) => pair.split('=') as [string, string]),
    );
    expect(env).toMatchObject({ NODE_ENV: 'production', DATA_DIR: '/var/lib/pipit' });
    // The unit's command, run where this checkout is (its WorkingDirectory), on a free port.
    const command = service.ExecStart![0]!.split(/\s+/);
    expect(command[0]).toBe('/usr/bin/node');
    const server = await startCommand(command, ROOT_DIR, {
      ...env,
      DATA_DIR: dataDir(),
      PORT: String(await freePort()),
    });
    const health = (await (await fetch(`${server.url}/api/health`)).json()) as { storage: string };
    expect(health.storage).toBe('sqlite');
    expect(await server.stop()).toBe(0);
  }, 90_000);
});

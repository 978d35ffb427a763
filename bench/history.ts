/**
 * History figures (docs/product/history.md): the size of a checkpoint of the 1,000-component app
 * and the time to make one (read the definition, compare with the checkpoint before, gzip, store
 * on SQLite); the history list with 200 checkpoints from the server; and opening the History panel
 * in Chromium until all 200 show. Prints figures; not a pass/fail test.
 * Run: npm run bench -- history   (--quick: fewer rounds; the browser part needs the built client:
 * node scripts/pipit.mjs build)
 */
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { readDefinition, setComponentProps } from '@pipit/app-definition';
import { startPipit } from '@pipit/sync-server/testing';
import { chromium } from 'playwright-core';
import * as Y from 'yjs';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/browser';
import { deviceOf, signUp } from '../e2e/support/people';
// Not re-exported by @pipit/sync-server/testing; imported by path, as the server's own tests do.
import { createHistory } from '../sync-server/src/history/checkpoints';
import { createLogger } from '../sync-server/src/logger';
import { openEngine } from '../sync-server/test/support/engines';
import { insertUser } from '../sync-server/test/support/users';
import { percentile } from '../sync-server/test/support/timing';
import { buildApp, COMPONENTS, newId } from './big-app';

const QUICK = process.argv.includes('--quick');
const ROUNDS = QUICK ? 5 : 20;
const LIST_ROUNDS = QUICK ? 10 : 50;
const PANEL_ROUNDS = QUICK ? 3 : 7;
const CHECKPOINTS = 200;

const ms = (n: number) => `${n.toFixed(1)} ms`;
function line(label: string, samples: number[]) {
  console.log(
    `  ${label.padEnd(58)} p50 ${ms(percentile(samples, 50)).padStart(9)}   p99 ${ms(percentile(samples, 99)).padStart(9)}   (${samples.length} runs)`,
  );
}

const logger = createLogger('silent');

async function checkpointFigures() {
  const { storage, cleanup } = await openEngine('sqlite');
  try {
    const history = createHistory({ storage, clock: { now: () => Date.now() }, logger });
    const owner = await insertUser(storage);
    const appId = newId();
    await storage.apps.insert({
      id: appId,
      ownerId: owner.id,
      title: 'Benchmark app',
      description: '',
      icon: null,
      createdAt: Date.now(),
    });
    const doc = new Y.Doc();
    buildApp(doc, newId);
    const definition = readDefinition(doc);
    const count = definition.screens.reduce((n, s) => n + s.components.length, 0);
    if (count !== COMPONENTS) throw new Error(`${count} components read`);
    const json = JSON.stringify(definition);
    const gz = gzipSync(json);
    console.log(
      `\nA checkpoint of the ${COMPONENTS.toLocaleString('en')}-component app: ` +
        `${(json.length / 1024).toFixed(0)} KiB of JSON, ${(gz.byteLength / 1024).toFixed(1)} KiB stored (gzip)`,
    );
    await history.record({ appId, kind: 'auto', definition });
    const components = definition.screens.flatMap((s) => s.components);
    const times: number[] = [];
    const reads: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const target = components[(i * 37) % components.length]!;
      if (target.type === 'heading') setComponentProps(doc, target.id, { text: `Edited ${i}` });
      else setComponentProps(doc, components[0]!.id, { text: `Edited ${i}` } as never);
      const started = performance.now();
      const read = readDefinition(doc);
      const readAt = performance.now();
      await history.record({ appId, kind: 'manual', name: `Round ${i}`, definition: read });
      const done = performance.now();
      reads.push(readAt - started);
      times.push(done - started);
    }
    line('make one (read, compare with the one before, gzip, store)', times);
    line('  of which reading the definition from the document', reads);
    const sizes = (await storage.checkpoints.list(appId)).map((c) => c.size);
    console.log(
      `  stored sizes: ${(Math.min(...sizes) / 1024).toFixed(1)}–${(Math.max(...sizes) / 1024).toFixed(1)} KiB each`,
    );
  } finally {
    await storage.close();
    await cleanup();
  }
}

async function panelFigures() {
  const pipit = await startPipit({});
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const ada = await signUp(pipit, 'ada_bench');
    const appId = newId();
    const created = await ada.api.post('/api/apps', { id: appId, title: 'Benchmark app' });
    if (created.status !== 201) throw new Error(`register: ${JSON.stringify(created.body)}`);
    const doc = new Y.Doc();
    buildApp(doc, newId);
    await pipit.server.storage.documents.store(`app/${appId}`, Y.encodeStateAsUpdate(doc));
    const definition = readDefinition(doc);
    const history = createHistory({
      storage: pipit.server.storage,
      clock: { now: () => Date.now() },
      logger,
    });
    const components = definition.screens.flatMap((s) => s.components);
    const started = Date.now() - CHECKPOINTS * 60_000;
    for (let i = 0; i < CHECKPOINTS; i++) {
      const edited = structuredClone(definition);
      const c = edited.screens[0]!.components[i % components.length];
      if (c && c.type === 'heading') c.props.text = `Edit ${i}`;
      edited.meta.title = `Benchmark app ${i}`;
      await history.record({
        appId,
        kind: i % 10 === 0 ? 'manual' : 'auto',
        name: i % 10 === 0 ? `Checkpoint ${i}` : null,
        definition: edited,
        createdAt: started + i * 60_000,
        createdById: ada.id,
        authorIds: [ada.id],
      });
    }
    const listed = (await pipit.server.storage.checkpoints.list(appId)).length;
    console.log(`\nThe History panel with ${listed} checkpoints:`);
    // A connection left idle while the checkpoints were written may be closed by now: warm up.
    await ada.api.get('/api/auth/session').catch(() => ada.api.get('/api/auth/session'));
    const apiTimes: number[] = [];
    for (let i = 0; i < LIST_ROUNDS; i++) {
      const t = performance.now();
      const answer = await ada.api.get<{ checkpoints: unknown[] }>(
        `/api/apps/${appId}/checkpoints`,
      );
      apiTimes.push(performance.now() - t);
      if (answer.body.checkpoints.length !== listed) throw new Error('list incomplete');
    }
    line('GET /api/apps/{id}/checkpoints (the list)', apiTimes);

    const context = await deviceOf(browser, pipit, ada, { viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const panelTimes: number[] = [];
    for (let i = 0; i < PANEL_ROUNDS + 1; i++) {
      await page.goto(`${pipit.url}/apps/${appId}/edit`);
      await page.getByRole('button', { name: 'History' }).waitFor();
      // Timed in the page itself (a click, then each frame until every checkpoint is in the list):
      // the test driver's own queries over a 1,000-component editor would be measured otherwise.
      // (A string, not a function: the TypeScript loader would add helpers the page lacks.)
      const elapsed = await page.evaluate<number>(`new Promise((resolve) => {
        const button = [...document.querySelectorAll('button')].find(
          (b) => b.textContent.trim() === 'History');
        const started = performance.now();
        button.click();
        const check = () => {
          if (document.querySelectorAll('.history__item').length >= ${listed}) {
            resolve(performance.now() - started);
          } else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      })`);
      if (i > 0) panelTimes.push(elapsed);
    }
    line('click History → all checkpoints listed (Chromium, 1×)', panelTimes);
    console.log('  (the first open of the page is a warm-up and not counted)');
    await context.close();
  } finally {
    await browser.close();
    await pipit.close();
  }
}

await checkpointFigures();
await panelFigures();

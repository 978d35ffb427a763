/**
 * Changes you review (docs/product/history.md, drafts.md): on the 1,000-component app, the time to
 * show a proposed change — Ask AI's suggestion or a draft — (its diff and its parts, as the review
 * lists them) and to merge the parts taken into the app as collaborators left it meanwhile, and a
 * draft's Update draft (the app's changes merged into it); and what who-changed-what costs the
 * server per update and per stored byte, against the same updates without it (today's path).
 * Prints figures; not a pass/fail test.
 * Run: npm run bench -- review   (--quick: fewer rounds)
 */
import { performance } from 'node:perf_hooks';
import {
  type AppDefinition,
  addComponent,
  addScreen,
  changeParts,
  closeParts,
  markTouched,
  mergeDefinitions,
  readDefinition,
  removeComponent,
  setComponentProps,
  setTheme,
} from '@pipit/app-definition';
import * as Y from 'yjs';
import { createAttribution } from '../sync-server/src/history/attribution';
import { createLogger } from '../sync-server/src/logger';
import { openEngine } from '../sync-server/test/support/engines';
import { percentile } from '../sync-server/test/support/timing';
import { insertUser } from '../sync-server/test/support/users';
import { buildApp, COMPONENTS, newId } from './big-app';

const QUICK = process.argv.includes('--quick');
const ROUNDS = QUICK ? 5 : 30;
const UPDATE_ROUNDS = QUICK ? 3 : 7;
/** Keystrokes into 30 components' texts: what a few minutes of editing sends. */
const KEYSTROKES = 3_000;

const ms = (n: number) => `${n.toFixed(1)} ms`;
function line(label: string, samples: number[]) {
  console.log(
    `  ${label.padEnd(52)} p50 ${ms(percentile(samples, 50)).padStart(9)}   p95 ${ms(percentile(samples, 95)).padStart(9)}   (${samples.length} runs)`,
  );
}

/** A copy of a document, edited by `edit`, read as a definition. */
function editedCopy(doc: Y.Doc, edit: (copy: Y.Doc) => void): AppDefinition {
  const copy = new Y.Doc();
  Y.applyUpdate(copy, Y.encodeStateAsUpdate(doc));
  edit(copy);
  return readDefinition(copy) as AppDefinition;
}

/** The app's components of one type (a heading has a text; the big app has 167 of them). */
function componentIds(definition: AppDefinition, type: string): string[] {
  return definition.screens.flatMap((s) =>
    s.components.filter((c) => c.type === type).map((c) => c.id),
  );
}

/** Ask AI's review and accepting it, or a draft merged back: diff, parts, merge of all but one. */
function reviewFigures() {
  const doc = new Y.Doc();
  buildApp(doc, newId);
  const base = readDefinition(doc) as AppDefinition;
  const heads = componentIds(base, 'heading');
  const dividers = componentIds(base, 'divider');
  const diffs: number[] = [];
  const merges: number[] = [];
  const totals: number[] = [];
  const updates: number[] = [];
  let parts = 0;
  let conflicts = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const offset = round * 7;
    // The suggestion (or draft): 30 texts rewritten, 10 components removed, a new screen of 20,
    // another theme.
    const proposed = editedCopy(doc, (copy) => {
      for (let i = 0; i < 30; i++) {
        setComponentProps(copy, heads[(offset + i * 2) % heads.length]!, {
          text: `Suggested ${i}`,
        });
      }
      for (let i = 0; i < 10; i++) {
        removeComponent(copy, dividers[(offset + i * 5) % dividers.length]!);
      }
      const screen = addScreen(copy, newId, { title: 'Budget' });
      for (let i = 0; i < 20; i++) {
        addComponent(copy, newId, screen, 'text', Infinity, { markdown: `Line ${i}` });
      }
      setTheme(copy, { preset: 'ember' });
    });
    // The app meanwhile: collaborators changed 15 other texts, and 3 the suggestion changed too.
    const now = editedCopy(doc, (copy) => {
      for (let i = 0; i < 15; i++) {
        setComponentProps(copy, heads[(offset + 100 + i * 2) % heads.length]!, {
          text: `Theirs ${i}`,
        });
      }
      for (let i = 0; i < 3; i++) {
        setComponentProps(copy, heads[(offset + i * 2) % heads.length]!, {
          text: `Also theirs ${i}`,
        });
      }
    });
    // As the review does: the parts once when the suggestion arrives, then the merge (for the
    // preview of what is ticked, and on Accept).
    const started = performance.now();
    const list = changeParts(base, proposed);
    const shown = performance.now();
    // Everything but the first part taken, with what the taken parts need.
    const taken = closeParts(list, new Set(list.slice(1).map((p) => p.key)));
    const merged = mergeDefinitions(base, proposed, now, { taken });
    const done = performance.now();
    diffs.push(shown - started);
    merges.push(done - shown);
    totals.push(done - started);
    // A draft's Update draft: the app's changes since the base, merged whole into the draft.
    const updateStarted = performance.now();
    mergeDefinitions(base, now, proposed);
    updates.push(performance.now() - updateStarted);
    parts = list.length;
    conflicts = merged.conflicts.length;
    if (list.length === 0) throw new Error('the suggestion changed nothing');
  }
  console.log(
    `\nReviewing a change to the ${COMPONENTS.toLocaleString('en')}-component app (${parts} parts; ${conflicts} conflicts with the app's own edits):`,
  );
  line('its parts (what the review lists, as History names changes)', diffs);
  line('merging all parts but one into the app as it is now', merges);
  line('both (goal: p95 ≤ 100 ms)', totals);
  line('a draft’s Update draft: the app’s changes merged in', updates);
}

const connection = (userId: string) => ({
  source: 'connection',
  connection: { context: { userId } },
});

/** The keystrokes, as a device sends them: one update per character typed into 30 texts. */
function typing(doc: Y.Doc): Uint8Array[] {
  const device = new Y.Doc();
  Y.applyUpdate(device, Y.encodeStateAsUpdate(doc));
  const ids = componentIds(readDefinition(device) as AppDefinition, 'heading');
  const updates: Uint8Array[] = [];
  device.on('update', (u: Uint8Array) => updates.push(u));
  for (let i = 0; i < KEYSTROKES; i++) {
    const id = ids[(i % 30) * 5]!;
    setComponentProps(device, id, { text: `Typed ${'x'.repeat(1 + (i % 40))}` });
  }
  return updates;
}

/** What who-changed-what costs per update (applied as the server applies a connection's) and stored. */
async function attributionFigures() {
  const { storage, cleanup } = await openEngine('sqlite');
  try {
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
    const source = new Y.Doc();
    buildApp(source, newId);
    const state = Y.encodeStateAsUpdate(source);
    const updates = typing(source);
    const logBytes = updates.reduce((n, u) => n + u.byteLength, 0);
    const apply = async (attributed: boolean) => {
      const doc = new Y.Doc();
      Y.applyUpdate(doc, state);
      readDefinition(doc); // as a loaded document on the server: its tables already typed
      const attribution = createAttribution({
        storage,
        clock: { now: () => Date.now() },
        logger: createLogger('silent'),
        flushMs: 60_000,
      });
      if (attributed) {
        await attribution.extension.afterLoadDocument?.({
          documentName: `app/${appId}`,
          document: doc,
        } as never);
      }
      const origin = connection(owner.id);
      const started = performance.now();
      for (const update of updates) Y.applyUpdate(doc, update, origin);
      const applied = performance.now() - started;
      const flushStarted = performance.now();
      await attribution.stop();
      return { applied, flushed: performance.now() - flushStarted };
    };
    const plain: number[] = [];
    const credited: number[] = [];
    const flushes: number[] = [];
    for (let round = 0; round < UPDATE_ROUNDS; round++) {
      plain.push((await apply(false)).applied);
      const withIt = await apply(true);
      credited.push(withIt.applied);
      flushes.push(withIt.flushed);
    }
    const rows = await storage.appChanges.list(appId, { limit: 100_000 });
    const rowBytes = rows.reduce(
      (n, r) =>
        n +
        r.id.length +
        r.appId.length +
        r.entity.length +
        r.entityId.length +
        JSON.stringify(r.paths).length +
        r.kind.length +
        (r.author?.id.length ?? 0) +
        8,
      0,
    );
    const perUpdate = (samples: number[]) => (percentile(samples, 50) * 1000) / updates.length;
    console.log(
      `\nWho changed what, on the server: ${updates.length.toLocaleString('en')} keystrokes into 30 texts of the ${COMPONENTS.toLocaleString('en')}-component app, applied as a connection's (SQLite):`,
    );
    console.log(
      `  applying them, today (no attribution)                 ${perUpdate(plain).toFixed(1).padStart(7)} µs per update (p50 of ${plain.length} runs)`,
    );
    console.log(
      `  applying them, crediting each change                  ${perUpdate(credited).toFixed(1).padStart(7)} µs per update: +${(perUpdate(credited) - perUpdate(plain)).toFixed(1)} µs`,
    );
    console.log(
      `  writing what was gathered (one batch)                 ${ms(percentile(flushes, 50)).padStart(9)} for ${(rows.length / UPDATE_ROUNDS).toFixed(0)} entries`,
    );
    console.log(
      `  stored: the log holds ${(logBytes / updates.length).toFixed(0)} B per update; who changed what ${(rowBytes / UPDATE_ROUNDS / updates.length).toFixed(1)} B per update (${(rowBytes / rows.length).toFixed(0)} B per entry, one per thing and writer per 2 s)`,
    );

    // The mark a change someone ran carries: one key, written again by each.
    const marked = new Y.Doc();
    const unmarked = new Y.Doc();
    Y.applyUpdate(marked, state);
    Y.applyUpdate(unmarked, state);
    const ids = componentIds(readDefinition(marked) as AppDefinition, 'heading');
    for (let i = 0; i < 100; i++) {
      const id = ids[(i * 7) % ids.length]!;
      marked.transact((tr) => {
        setComponentProps(marked, id, { text: `AI ${i}` });
        markTouched(marked, tr, 'ai');
      });
      setComponentProps(unmarked, id, { text: `AI ${i}` });
    }
    const size = (d: Y.Doc) => Y.encodeStateAsUpdate(d).byteLength;
    console.log(
      `  100 accepted suggestions, marked: the document grows ${(size(marked) - size(unmarked)).toLocaleString('en')} B more than unmarked (of ${size(unmarked).toLocaleString('en')} B)`,
    );
  } finally {
    await cleanup();
  }
}

reviewFigures();
await attributionFigures();

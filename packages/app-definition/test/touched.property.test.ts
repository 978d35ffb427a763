import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import {
  addComponent,
  createApp,
  applyDefinition,
  readDefinition,
  removeScreen,
  setComponentProps,
  setMeta,
  markOfTransaction,
  markTouched,
  type TouchedEntity,
  touchedWords,
  watchTouched,
  writeDefinition,
} from '../src/index';
import {
  anyEdits,
  baseWithReminders,
  editedSide,
  type Facts,
  facts,
  paths,
  RUNS,
  same,
} from './merge-sides';
import { idFactory, newDoc } from './support';

/** What every transaction on `doc` touched, in order, while `fn` runs. */
function watched(doc: Y.Doc, fn: () => void): TouchedEntity[] {
  const seen: TouchedEntity[] = [];
  const stop = watchTouched(doc, (touched) => seen.push(...touched));
  try {
    fn();
  } finally {
    stop();
  }
  return seen;
}

/** A fact's path as the document keeps it: theme colours in `custom`, a schedule whole. */
function documentPath(key: string, path: string): string {
  if (key === 'theme:theme' && !['preset', 'radius', 'font', 'density', 'mode'].includes(path)) {
    return 'custom';
  }
  if (key.startsWith('reminder:') && path.startsWith('schedule.')) return 'schedule';
  return path;
}

/** `kind:id` → the document paths that differ between two readings ('added', 'removed'). */
function differences(before: Facts, after: Facts): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    const a = before.get(key);
    const b = after.get(key);
    if (!a || !b) {
      out.set(key, new Set([a ? 'removed' : 'added']));
      continue;
    }
    const changed = [...paths(a, b)].filter((p) => !same(a.get(p), b.get(p)));
    if (changed.length > 0) out.set(key, new Set(changed.map((p) => documentPath(key, p))));
  }
  return out;
}

describe('touchedByTransaction', () => {
  it('names every entity and property an edit changed, as Yjs integrated it', () => {
    fc.assert(
      fc.property(baseWithReminders, anyEdits, (base, list) => {
        const doc = newDoc(1);
        writeDefinition(doc, base);
        const edited = editedSide(base, list, 'o');
        const before = facts(readDefinition(doc));
        const seen = watched(doc, () => applyDefinition(doc, edited));
        const touched = new Map<string, Set<string>>();
        for (const t of seen) {
          const key = `${t.entity}:${t.id}`;
          touched.set(key, new Set([...(touched.get(key) ?? []), ...t.paths]));
        }
        const changed = differences(before, facts(readDefinition(doc)));
        for (const [key, wanted] of changed) {
          // An entity removed with its parent is listed itself; one added says only that.
          const got = touched.get(key) ?? new Set<string>();
          for (const path of wanted) expect(got.has(path), `${key} ${path}`).toBe(true);
        }
        // Nothing is credited that did not change (a move rewrites `order` and is a change).
        for (const [key, got] of touched) {
          const wanted = changed.get(key) ?? new Set<string>();
          const extra = [...got].filter((p) => p !== 'order' && !wanted.has(p));
          expect(extra, key).toEqual([]);
        }
      }),
      { ...RUNS, numRuns: 100 },
    );
  });

  it('names nested properties, removals with their children, and the app’s own fields', () => {
    const doc = newDoc(1);
    const newId = idFactory();
    const screenId = createApp(doc, newId, { title: 'Habits' });
    const heading = addComponent(doc, newId, screenId, 'heading', 0, { text: 'Hi' });
    expect(watched(doc, () => setComponentProps(doc, heading, { text: 'Hello' }))).toEqual([
      { entity: 'component', id: heading, paths: ['props.text'] },
    ]);
    expect(watched(doc, () => setMeta(doc, { title: 'Books' }))).toEqual([
      { entity: 'app', id: 'app', paths: ['title'] },
    ]);
    const now = readDefinition(doc);
    expect(touchedWords(now, 'component', heading, ['props.text', 'order'])).toBe(
      'changed the text, position',
    );
    expect(touchedWords(now, 'component', heading, ['added'])).toBe('added it');
    expect(touchedWords(now, 'component', heading, ['added', 'removed'])).toBe(
      'added and removed it',
    );
    expect(touchedWords(now, 'app', 'app', ['title'])).toBe('changed the title');
    const removed = watched(doc, () => removeScreen(doc, screenId));
    expect(touchedWords(readDefinition(doc), 'component', heading, ['removed'])).toBe('removed it');
    expect(removed).toContainEqual({ entity: 'screen', id: screenId, paths: ['removed'] });
    expect(removed).toContainEqual({ entity: 'component', id: heading, paths: ['removed'] });
    // What arrives from another device is read the same way: what this document integrated, in
    // a document filled from an update whose tables nothing has asked for yet.
    const other = newDoc(2);
    Y.applyUpdate(other, Y.encodeStateAsUpdate(doc));
    const later = newDoc(3);
    Y.applyUpdate(later, Y.encodeStateAsUpdate(doc));
    const update = (() => {
      let bytes: Uint8Array | null = null;
      later.on('update', (u: Uint8Array) => (bytes = u));
      setMeta(later, { description: 'Read more' });
      return bytes!;
    })();
    expect(watched(other, () => Y.applyUpdate(other, update))).toEqual([
      { entity: 'app', id: 'app', paths: ['description'] },
    ]);
    // An update that changes nothing (already integrated) touches nothing.
    expect(watched(other, () => Y.applyUpdate(other, update))).toEqual([]);
  });

  it('carries a mark of who ran a change to the document that integrates it, once', () => {
    const doc = newDoc(1);
    const newId = idFactory();
    const screenId = createApp(doc, newId, { title: 'Habits' });
    const server = newDoc(2);
    Y.applyUpdate(server, Y.encodeStateAsUpdate(doc));
    const marks: Array<ReturnType<typeof markOfTransaction>> = [];
    const seen: TouchedEntity[][] = [];
    watchTouched(server, (touched, tr) => {
      seen.push(touched);
      marks.push(markOfTransaction(server, tr));
    });
    const send = (fn: () => void) => {
      const updates: Uint8Array[] = [];
      const listener = (u: Uint8Array) => updates.push(u);
      doc.on('update', listener);
      fn();
      doc.off('update', listener);
      for (const u of updates) Y.applyUpdate(server, u);
    };
    let heading = '';
    send(() =>
      doc.transact((tr) => {
        heading = addComponent(doc, newId, screenId, 'heading', 0, { text: 'Hi' });
        setMeta(doc, { title: 'Books' });
        markTouched(doc, tr, 'ai');
      }),
    );
    expect(marks.at(-1)).toEqual({
      kind: 'ai',
      entities: new Set([`component:${heading}`, 'app:app']),
    });
    // The next change, unmarked, is the person's: the mark kept in the document is not new.
    send(() => setComponentProps(doc, heading, { text: 'Hello' }));
    expect(seen.at(-1)).toEqual([{ entity: 'component', id: heading, paths: ['props.text'] }]);
    expect(marks.at(-1)).toBeNull();
    // Nothing changed, nothing marked.
    send(() => doc.transact((tr) => markTouched(doc, tr, 'restore')));
    expect(marks).toHaveLength(2);
    // A mark of another shape is none.
    send(() =>
      doc.transact(() => {
        setMeta(doc, { title: 'Films' });
        doc.getMap('authoring').set('change', { kind: 'import', entities: ['app:app'] });
      }),
    );
    expect(marks.at(-1)).toBeNull();
  });

  it('says when a transaction integrated parts that waited for it (they may be another writer’s)', () => {
    const doc = newDoc(1);
    createApp(doc, idFactory(), { title: 'Habits' });
    const server = newDoc(2);
    Y.applyUpdate(server, Y.encodeStateAsUpdate(doc));
    const updates: Uint8Array[] = [];
    doc.on('update', (u: Uint8Array) => updates.push(u));
    setMeta(doc, { title: 'One' });
    setMeta(doc, { description: 'Two' });
    const seen: boolean[] = [];
    watchTouched(server, (_touched, _tr, waited) => seen.push(waited));
    // The second arrives first: what it deletes applies at once (nothing waited before it), its
    // new value waits for the first, which then brings both in.
    Y.applyUpdate(server, updates[1]!);
    expect(seen).toEqual([false]);
    Y.applyUpdate(server, updates[0]!);
    expect(seen).toEqual([false, true]);
    expect(readDefinition(server).meta.description).toBe('Two');
    setMeta(doc, { title: 'Three' });
    Y.applyUpdate(server, updates[2]!);
    expect(seen).toEqual([false, true, false]);
  });
});

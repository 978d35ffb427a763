import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import {
  addComponent,
  addScreen,
  APP_TEMPLATES,
  applyDefinition,
  type AppDefinition,
  LOCAL_EDIT,
  moveComponent,
  readDefinition,
  removeScreen,
  setComponentProps,
  setMeta,
  setTheme,
  undoRoots,
  writeDefinition,
} from '../src';
import { idFactory, newDoc } from './support';

function templateDoc(index = 0): { doc: Y.Doc; definition: AppDefinition } {
  const definition = APP_TEMPLATES[index]!.build();
  const doc = newDoc(1);
  writeDefinition(doc, definition);
  return { doc, definition };
}

/** Every change a document emits while `work` runs, as one Yjs update (null when nothing changed). */
function updateOf(doc: Y.Doc, work: () => void): Uint8Array | null {
  let update: Uint8Array | null = null;
  const listener = (u: Uint8Array) => {
    update = update ? Y.mergeUpdates([update, u]) : u;
  };
  doc.on('update', listener);
  work();
  doc.off('update', listener);
  return update;
}

describe('applyDefinition', () => {
  it('makes an edited document read exactly as the target, in one undoable step', () => {
    const { doc } = templateDoc();
    const before = readDefinition(doc);
    const undo = new Y.UndoManager(undoRoots(doc), { trackedOrigins: new Set([LOCAL_EDIT]) });
    const newId = idFactory('n');
    const screenId = before.screens[0]!.id;
    setMeta(doc, { title: 'Renamed' });
    setTheme(doc, { preset: 'forest' } as never);
    addScreen(doc, newId, { title: 'Extra' });
    addComponent(doc, newId, screenId, 'heading', 0);
    removeScreen(doc, before.screens.at(-1)!.id);
    const first = before.screens[0]!.components[0]!;
    if (first.type !== 'invalid') setComponentProps(doc, first.id, { text: 'changed' } as never);
    undo.stopCapturing();
    const edited = readDefinition(doc);
    expect(edited).not.toEqual(before);

    applyDefinition(doc, before);
    expect(readDefinition(doc)).toEqual(before);
    undo.undo();
    expect(readDefinition(doc)).toEqual(edited);
  });

  it('writes nothing when the document already equals the target', () => {
    const { doc, definition } = templateDoc(1);
    expect(updateOf(doc, () => applyDefinition(doc, readDefinition(doc)))).toBeNull();
    expect(updateOf(doc, () => applyDefinition(doc, definition))).toBeNull();
  });

  it('restores an order: components moved back where they were', () => {
    const { doc } = templateDoc(2);
    const before = readDefinition(doc);
    const screen = before.screens.find((s) => s.components.length >= 3)!;
    const ids = screen.components.map((c) => c.id);
    moveComponent(doc, ids[0]!, ids.length);
    expect(readDefinition(doc).screens.find((s) => s.id === screen.id)!.components[0]!.id).toBe(
      ids[1],
    );
    applyDefinition(doc, before);
    expect(readDefinition(doc)).toEqual(before);
  });

  it('keeps a collaborator’s concurrent edit of something else', () => {
    const { doc: mine } = templateDoc(3);
    const theirs = newDoc(2);
    Y.applyUpdate(theirs, Y.encodeStateAsUpdate(mine));
    const checkpoint = readDefinition(mine);
    setMeta(mine, { title: 'Mine, later' });
    Y.applyUpdate(theirs, Y.encodeStateAsUpdate(mine));
    // Concurrently: I restore the checkpoint; they rename a screen.
    const screenId = checkpoint.screens[0]!.id;
    applyDefinition(mine, checkpoint);
    theirs.transact(() => {
      (theirs.getMap('screens').get(screenId) as Y.Map<unknown>).set('title', 'Theirs');
    }, 'remote');
    Y.applyUpdate(mine, Y.encodeStateAsUpdate(theirs));
    Y.applyUpdate(theirs, Y.encodeStateAsUpdate(mine));
    const merged = readDefinition(mine);
    expect(merged).toEqual(readDefinition(theirs));
    expect(merged.meta.title).toBe(checkpoint.meta.title);
    expect(merged.screens[0]!.title).toBe('Theirs');
  });

  it('builds a whole app into an empty document', () => {
    const { definition } = templateDoc(4);
    const empty = newDoc(5);
    applyDefinition(empty, definition);
    expect(readDefinition(empty)).toEqual(definition);
  });
});

describe('applyDefinition and components this version cannot read', () => {
  it('keeps a component of an unknown type that the target does not mention', () => {
    const { doc, definition } = templateDoc(0);
    const screenId = definition.screens[0]!.id;
    doc.transact(() => {
      const entity = new Y.Map<unknown>();
      entity.set('type', 'hologram');
      entity.set('screenId', screenId);
      entity.set('order', 'a0');
      entity.set('props', new Y.Map());
      doc.getMap('components').set('future1', entity);
    });
    expect(readDefinition(doc).screens[0]!.components.some((c) => c.id === 'future1')).toBe(true);
    applyDefinition(doc, { ...definition, meta: { ...definition.meta, title: 'Restored' } });
    const after = readDefinition(doc);
    expect(after.meta.title).toBe('Restored');
    expect(after.screens[0]!.components.find((c) => c.id === 'future1')?.type).toBe('invalid');
  });
});

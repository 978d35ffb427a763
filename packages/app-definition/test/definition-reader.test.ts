import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import {
  addCollection,
  addComponent,
  addField,
  addScreen,
  createApp,
  DefinitionError,
  DefinitionReader,
  moveComponent,
  readDefinition,
  removeComponent,
  removeField,
  removeScreen,
  setComponentProps,
  setMeta,
} from '../src/index';
import { idFactory, newDoc } from './support';

function bookApp() {
  const doc = newDoc(1);
  const newId = idFactory();
  const home = createApp(doc, newId, { title: 'Reading list' });
  const books = addCollection(doc, newId, 'Books');
  const title = addField(doc, newId, books, { name: 'Title', type: 'text' });
  const author = addField(doc, newId, books, { name: 'Author', type: 'text' });
  const heading = addComponent(doc, newId, home, 'heading', Infinity, { text: 'Books' });
  const list = addComponent(doc, newId, home, 'list', Infinity, {
    collectionId: books,
    titleFieldId: title,
    subtitleFieldId: author,
  });
  const text = addComponent(doc, newId, home, 'text', Infinity, { markdown: 'Hello' });
  return { doc, newId, home, books, title, author, heading, list, text };
}

/** A change to one property every kind used here has. */
const RETEXT: Record<string, string> = { heading: 'text', text: 'markdown', list: 'emptyText' };
function retext(doc: Y.Doc, component: { id: string; type: string }, text: string) {
  const key = RETEXT[component.type];
  if (key) setComponentProps(doc, component.id, { [key]: text });
}

const componentsOf = (read: ReturnType<typeof readDefinition>) =>
  read.screens.flatMap((screen) => screen.components);

describe('DefinitionReader', () => {
  it('gives back the same object for every component an edit did not touch', () => {
    const app = bookApp();
    const reader = new DefinitionReader(app.doc);
    const before = componentsOf(reader.read());
    setComponentProps(app.doc, app.heading, { text: 'My books' });
    const after = componentsOf(reader.read());
    expect(after).toEqual(componentsOf(readDefinition(app.doc)));
    expect(after[0]).not.toBe(before[0]);
    expect(after[0]).toMatchObject({ props: { text: 'My books' } });
    expect(after[1]).toBe(before[1]);
    expect(after[2]).toBe(before[2]);
    // An edit elsewhere in the document (the app's title) reads no component again.
    setMeta(app.doc, { title: 'Shelf' });
    const again = componentsOf(reader.read());
    expect(again.every((component, i) => component === after[i])).toBe(true);
    reader.destroy();
  });

  it('reads again a component whose reference was deleted, as readDefinition repairs it', () => {
    const app = bookApp();
    const reader = new DefinitionReader(app.doc);
    const before = componentsOf(reader.read());
    removeField(app.doc, app.author);
    const after = componentsOf(reader.read());
    expect(after).toEqual(componentsOf(readDefinition(app.doc)));
    expect(after[1]).toMatchObject({ props: { subtitleFieldId: null } });
    expect(after[1]).not.toBe(before[1]);
    reader.destroy();
  });

  it('follows changes that arrive from another device and values written straight into the document', () => {
    const app = bookApp();
    const other = newDoc(2);
    Y.applyUpdate(other, Y.encodeStateAsUpdate(app.doc));
    const reader = new DefinitionReader(app.doc);
    const before = componentsOf(reader.read());
    setComponentProps(other, app.text, { markdown: 'From the phone' });
    Y.applyUpdate(app.doc, Y.encodeStateAsUpdate(other, Y.encodeStateVector(app.doc)));
    const props = (app.doc.getMap('components').get(app.heading) as Y.Map<unknown>).get(
      'props',
    ) as Y.Map<unknown>;
    props.set('level', 99); // as a buggy or hostile peer might write
    const after = componentsOf(reader.read());
    expect(after).toEqual(componentsOf(readDefinition(app.doc)));
    expect(after[0]).toMatchObject({ props: { text: 'Books', level: 2 } });
    expect(after[2]).toMatchObject({ props: { markdown: 'From the phone' } });
    expect(after[1]).toBe(before[1]);
    reader.destroy();
  });

  it('stops following the document when destroyed', () => {
    const app = bookApp();
    const reader = new DefinitionReader(app.doc);
    reader.read();
    reader.destroy();
    const listeners = (app.doc as unknown as { _observers: Map<string, Set<unknown>> })._observers;
    expect(listeners.get('afterTransaction')?.size ?? 0).toBe(0);
  });

  const EDIT = fc.record({
    kind: fc.constantFrom(
      'text',
      'level',
      'raw',
      'add',
      'remove',
      'move',
      'removeField',
      'addField',
      'screen',
      'removeScreen',
      'remote',
    ),
    n: fc.nat(50),
  });

  test.prop([fc.array(EDIT, { minLength: 1, maxLength: 25 })], { seed: 20_261_127, numRuns: 150 })(
    'reads what readDefinition reads after any sequence of edits',
    (edits) => {
      const app = bookApp();
      const remote = newDoc(2);
      Y.applyUpdate(remote, Y.encodeStateAsUpdate(app.doc));
      const reader = new DefinitionReader(app.doc);
      const remoteId = idFactory('r');
      const pick = <T>(items: T[], n: number): T | undefined =>
        items[n % Math.max(1, items.length)];
      for (const { kind, n } of edits) {
        const read = readDefinition(app.doc);
        const components = componentsOf(read);
        const component = pick(components, n);
        const screen = pick(read.screens, n);
        const fields = read.collections.flatMap((c) => c.fields);
        try {
          if (kind === 'text' && component) retext(app.doc, component, `Text ${n}`);
          else if (kind === 'level' && component?.type === 'heading')
            setComponentProps(app.doc, component.id, { level: (n % 3) + 1 });
          else if (kind === 'raw' && component) {
            const entity = app.doc.getMap('components').get(component.id) as Y.Map<unknown>;
            (entity.get('props') as Y.Map<unknown>).set('titleFieldId', n % 2 ? 42 : 'gone');
          } else if (kind === 'add' && screen)
            addComponent(app.doc, app.newId, screen.id, n % 2 ? 'list' : 'heading', n % 3, {
              ...(n % 2
                ? { collectionId: app.books, titleFieldId: pick(fields, n)?.id ?? null }
                : {}),
            });
          else if (kind === 'remove' && component) removeComponent(app.doc, component.id);
          else if (kind === 'move' && component) moveComponent(app.doc, component.id, n % 4);
          else if (kind === 'removeField' && fields.length > 0)
            removeField(app.doc, pick(fields, n)!.id);
          else if (kind === 'addField')
            addField(app.doc, app.newId, app.books, { name: `F${n}`, type: 'text' });
          else if (kind === 'screen') addScreen(app.doc, app.newId, { title: `S${n}` });
          else if (kind === 'removeScreen' && screen) removeScreen(app.doc, screen.id);
          else if (kind === 'remote') {
            Y.applyUpdate(remote, Y.encodeStateAsUpdate(app.doc, Y.encodeStateVector(remote)));
            const remoteRead = componentsOf(readDefinition(remote));
            const target = pick(remoteRead, n);
            if (target) retext(remote, target, `Remote ${n}`);
            else if (screen) addComponent(remote, remoteId, screen.id, 'text');
            Y.applyUpdate(app.doc, Y.encodeStateAsUpdate(remote, Y.encodeStateVector(app.doc)));
          }
        } catch (error) {
          // An edit the operations refuse (a screen that is gone) changes nothing; read on.
          if (!(error instanceof DefinitionError)) throw error;
        }
        expect(reader.read()).toEqual(readDefinition(app.doc));
      }
      reader.destroy();
    },
  );
});

import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import {
  addCollection,
  addComponent,
  addField,
  addScreen,
  appDefinitionSchema,
  createApp,
  ensureScreen,
  MISSING_SCREEN_ID,
  readDefinition,
  removeField,
  removeScreen,
  setComponentProps,
} from '../src/index';
import { idFactory, newDoc } from './support';

function pair() {
  const a = newDoc(1);
  const b = newDoc(2);
  const newId = idFactory();
  const home = createApp(a, newId, { title: 'Reading list' });
  Y.applyUpdate(b, Y.encodeStateAsUpdate(a));
  const sync = () => {
    Y.applyUpdate(a, Y.encodeStateAsUpdate(b, Y.encodeStateVector(a)));
    Y.applyUpdate(b, Y.encodeStateAsUpdate(a, Y.encodeStateVector(b)));
  };
  return { a, b, newId, home, sync };
}

describe('readDefinition', () => {
  it('leaves out a component added to a screen that another device deleted meanwhile', () => {
    const { a, b, newId, home, sync } = pair();
    const other = addScreen(a, newId, { title: 'Other' });
    sync();
    removeScreen(a, other);
    addComponent(b, idFactory('b'), other, 'heading');
    sync();
    const read = readDefinition(a);
    expect(read.screens.map((s) => s.id)).toEqual([home]);
    expect(readDefinition(b)).toEqual(read);
  });

  it('repairs references to a field deleted on another device', () => {
    const { a, b, newId, home, sync } = pair();
    const books = addCollection(a, newId, 'Books');
    const title = addField(a, newId, books, { name: 'Title', type: 'text' });
    const author = addField(a, newId, books, { name: 'Author', type: 'text' });
    const list = addComponent(a, newId, home, 'list');
    setComponentProps(a, list, {
      collectionId: books,
      titleFieldId: title,
      subtitleFieldId: author,
      sort: { fieldId: author, direction: 'asc' },
      view: 'table',
      columnFieldIds: [author, title],
      dateFieldId: author,
    });
    const detail = addComponent(a, newId, home, 'detail', Infinity, { fieldIds: [title, author] });
    sync();
    removeField(b, author);
    sync();
    const read = readDefinition(a);
    const [listRead, detailRead] = read.screens[0]!.components;
    expect(listRead).toMatchObject({
      id: list,
      props: { collectionId: books, titleFieldId: title, subtitleFieldId: null, sort: null },
    });
    // A view's fields are references too: a table's columns keep the fields that exist.
    expect(listRead).toMatchObject({ props: { columnFieldIds: [title], dateFieldId: null } });
    expect(detailRead).toMatchObject({ id: detail, props: { fieldIds: [title] } });
    expect(appDefinitionSchema.safeParse(read).success).toBe(true);
  });

  it('repairs a calendar’s add screen deleted on another device', () => {
    const { a, b, newId, home, sync } = pair();
    const add = addScreen(a, newId, { title: 'Add' });
    const list = addComponent(a, newId, home, 'list', Infinity, {
      view: 'calendar',
      addScreenId: add,
      detailScreenId: add,
    });
    sync();
    removeScreen(b, add);
    sync();
    expect(readDefinition(a).screens[0]!.components[0]).toMatchObject({
      id: list,
      props: { view: 'calendar', addScreenId: null, detailScreenId: null },
    });
  });

  it('keeps the good properties of a component and drops only a bad one', () => {
    const { a, newId, home } = pair();
    const heading = addComponent(a, newId, home, 'heading', 0, { text: 'Hello' });
    const props = (a.getMap('components').get(heading) as Y.Map<unknown>).get(
      'props',
    ) as Y.Map<unknown>;
    props.set('level', 99); // as a buggy or hostile peer might write
    expect(readDefinition(a).screens[0]!.components[0]).toEqual({
      id: heading,
      type: 'heading',
      props: { text: 'Hello', level: 2 },
    });
  });

  it('shows an unknown component as a placeholder, not a crash', () => {
    const { a, home } = pair();
    const entity = new Y.Map<unknown>();
    entity.set('type', 'hologram');
    entity.set('screenId', home);
    entity.set('order', 'a0');
    a.getMap('components').set('x1', entity);
    expect(readDefinition(a).screens[0]!.components).toEqual([
      { id: 'x1', type: 'invalid', originalType: 'hologram', problem: expect.any(String) },
    ]);
  });

  it('orders items that two devices placed at the same spot by id, the same everywhere', () => {
    const { a, b, home, sync } = pair();
    addComponent(a, () => 'zzz', home, 'divider', 0);
    addComponent(b, () => 'aaa', home, 'divider', 0);
    sync();
    expect(readDefinition(a).screens[0]!.components.map((c) => c.id)).toEqual(['aaa', 'zzz']);
    expect(readDefinition(b)).toEqual(readDefinition(a));
  });

  it('falls back to defaults for garbage meta and theme values', () => {
    const { a } = pair();
    a.getMap('meta').set('title', 42);
    a.getMap('theme').set('preset', 'neon-chaos');
    a.getMap('theme').set('mode', 'dark');
    const read = readDefinition(a);
    expect(read.meta.title).toBe('Untitled app');
    expect(read.theme).toMatchObject({ preset: 'meadow', mode: 'dark' });
  });

  it('shows one empty screen when every screen was deleted, until a real one is made', () => {
    const { a, b, home, sync } = pair();
    const other = addScreen(b, idFactory('b'));
    sync();
    removeScreen(a, home);
    removeScreen(b, other);
    sync();
    expect(readDefinition(a).screens).toEqual([
      { id: MISSING_SCREEN_ID, title: 'Home', icon: '🏠', components: [] },
    ]);
    expect(appDefinitionSchema.safeParse(readDefinition(a)).success).toBe(true);
    const made = ensureScreen(a, () => 'fresh');
    expect(readDefinition(a).screens.map((s) => s.id)).toEqual([made]);
  });
});

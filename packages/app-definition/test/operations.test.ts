import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import {
  addCollection,
  addComponent,
  addField,
  addScreen,
  appDefinitionSchema,
  createApp,
  DefinitionError,
  duplicateComponent,
  duplicateScreen,
  LIMITS,
  LOCAL_EDIT,
  moveComponent,
  moveScreen,
  readDefinition,
  removeCollection,
  removeScreen,
  setComponentProps,
  setMeta,
} from '../src/index';
import { idFactory, newDoc } from './support';

function app() {
  const doc = newDoc();
  const newId = idFactory();
  const home = createApp(doc, newId, { title: 'Habits' });
  return { doc, newId, home };
}

describe('operations', () => {
  it('creates an app once, with one screen, as a valid definition', () => {
    const { doc, newId } = app();
    const definition = readDefinition(doc);
    expect(appDefinitionSchema.safeParse(definition).success).toBe(true);
    expect(definition.meta.title).toBe('Habits');
    expect(definition.screens.map((s) => s.title)).toEqual(['Home']);
    expect(() => createApp(doc, newId, { title: 'Again' })).toThrow(DefinitionError);
  });

  it('adds, orders, moves and duplicates screens and components', () => {
    const { doc, newId, home } = app();
    const stats = addScreen(doc, newId, { title: 'Stats' });
    const first = addScreen(doc, newId, { title: 'First', index: 0 });
    expect(readDefinition(doc).screens.map((s) => s.title)).toEqual(['First', 'Home', 'Stats']);
    moveScreen(doc, first, 3);
    expect(readDefinition(doc).screens.map((s) => s.title)).toEqual(['Home', 'Stats', 'First']);

    const heading = addComponent(doc, newId, home, 'heading', 0, { text: 'Today' });
    const list = addComponent(doc, newId, home, 'list');
    const divider = addComponent(doc, newId, home, 'divider', 1);
    expect(readDefinition(doc).screens[0]!.components.map((c) => c.id)).toEqual([
      heading,
      divider,
      list,
    ]);
    moveComponent(doc, list, 0);
    moveComponent(doc, divider, 0, stats);
    const copy = duplicateComponent(doc, newId, heading);
    const screens = readDefinition(doc).screens;
    expect(screens[0]!.components.map((c) => c.id)).toEqual([list, heading, copy]);
    expect(screens[1]!.components.map((c) => c.id)).toEqual([divider]);

    const copyScreen = duplicateScreen(doc, newId, home);
    const copied = readDefinition(doc).screens.find((s) => s.id === copyScreen)!;
    expect(copied.title).toBe('Home copy');
    expect(copied.components.map((c) => c.type)).toEqual(['list', 'heading', 'heading']);
  });

  it('validates properties as they are set, and changes nothing on a bad one', () => {
    const { doc, newId, home } = app();
    const link = addComponent(doc, newId, home, 'link');
    setComponentProps(doc, link, { label: 'Docs', url: 'https://example.org/docs' });
    expect(() => setComponentProps(doc, link, { url: 'javascript:alert(1)' })).toThrow();
    expect(() => setComponentProps(doc, link, { nonsense: 1 })).toThrow(DefinitionError);
    expect(readDefinition(doc).screens[0]!.components[0]).toMatchObject({
      type: 'link',
      props: { label: 'Docs', url: 'https://example.org/docs' },
    });
  });

  it('enforces the limits of docs/product/app-definition.md with a clear error, leaving the document as it was', () => {
    const { doc, newId, home } = app();
    for (let i = 0; i < LIMITS.componentsPerScreen; i++) addComponent(doc, newId, home, 'divider');
    const before = Y.encodeStateAsUpdate(doc);
    expect(() => addComponent(doc, newId, home, 'divider')).toThrow(
      `A screen can have at most ${LIMITS.componentsPerScreen} components.`,
    );
    expect(Y.encodeStateAsUpdate(doc)).toEqual(before);
    for (let i = 1; i < LIMITS.screens; i++) addScreen(doc, newId);
    expect(() => addScreen(doc, newId)).toThrow(/at most 50 screens/);
    const collection = addCollection(doc, newId);
    for (let i = 0; i < LIMITS.fieldsPerCollection; i++)
      addField(doc, newId, collection, { name: `f${i}`, type: 'text' });
    expect(() => addField(doc, newId, collection, { name: 'one more', type: 'text' })).toThrow(
      /at most 50 fields/,
    );
  });

  it('removes a screen with its components and a collection with its fields', () => {
    const { doc, newId, home } = app();
    const other = addScreen(doc, newId);
    addComponent(doc, newId, other, 'heading');
    const collection = addCollection(doc, newId);
    addField(doc, newId, collection, { name: 'Name', type: 'text' });
    removeScreen(doc, other);
    removeCollection(doc, collection);
    expect(doc.getMap('components').size).toBe(0);
    expect(doc.getMap('fields').size).toBe(0);
    expect(readDefinition(doc).screens.map((s) => s.id)).toEqual([home]);
  });

  it('lets an UndoManager undo this person’s edits and never a collaborator’s', () => {
    const mine = newDoc(1);
    const theirs = newDoc(2);
    const newId = idFactory();
    createApp(mine, newId, { title: 'Shared' });
    Y.applyUpdate(theirs, Y.encodeStateAsUpdate(mine), 'provider');
    const undo = new Y.UndoManager(
      ['meta', 'screens', 'components'].map((name) => mine.getMap(name)),
      { trackedOrigins: new Set([LOCAL_EDIT]), captureTimeout: 0 },
    );
    setMeta(mine, { title: 'Mine' });
    const theirScreen = addScreen(theirs, idFactory('t'), { title: 'Theirs' });
    Y.applyUpdate(mine, Y.encodeStateAsUpdate(theirs), 'provider');
    expect(readDefinition(mine).screens.map((s) => s.id)).toContain(theirScreen);
    undo.undo();
    const after = readDefinition(mine);
    expect(after.meta.title).toBe('Shared');
    expect(after.screens.map((s) => s.id)).toContain(theirScreen);
  });
});

import { describe, expect, it } from 'vitest';
import type * as Y from 'yjs';
import {
  addAction,
  addAiAction,
  addCollection,
  addComponent,
  addField,
  addStep,
  APP_TEMPLATES,
  checkForPublish,
  createApp,
  readDefinition,
  removeAction,
  setAiAction,
  setComponentProps,
  writeDefinition,
} from '../src/index';
import { idFactory, newDoc } from './support';

/** The props map of a component, to write into it what no editor operation would. */
const propsOf = (doc: Y.Doc, id: string) =>
  doc.getMap<Y.Map<unknown>>('components').get(id)?.get('props') as Y.Map<unknown>;

describe('checkForPublish', () => {
  it.each(APP_TEMPLATES.map((t) => [t.name, t] as const))(
    'passes the %s template as it is',
    (_name, template) => {
      const doc = newDoc();
      const definition = template.build();
      writeDefinition(doc, definition);
      const check = checkForPublish(doc);
      expect(check).toEqual({ ok: true, definition });
    },
  );

  it('refuses a document with no content yet', () => {
    const check = checkForPublish(newDoc());
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.problems).toEqual([expect.objectContaining({ path: '' })]);
  });

  it('reports a javascript: image and an unknown component, which the reader would salvage', () => {
    const doc = newDoc();
    const newId = idFactory();
    const home = createApp(doc, newId, { title: 'Links' });
    addComponent(doc, newId, home, 'heading');
    const image = addComponent(doc, newId, home, 'image');
    propsOf(doc, image).set('src', 'javascript:alert(1)');
    const odd = addComponent(doc, newId, home, 'text');
    doc.getMap<Y.Map<unknown>>('components').get(odd)?.set('type', 'marquee');

    // The reader the editor uses shows a usable app: the link dropped, a placeholder for the rest.
    const read = readDefinition(doc);
    expect(read.screens[0]?.components[1]).toMatchObject({ type: 'image', props: { src: '' } });

    const check = checkForPublish(doc);
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.problems).toEqual([
      {
        path: 'screens.0.components.1.props.src',
        message: expect.stringMatching(/https:\/\//) as string,
        entity: { table: 'components', id: image },
      },
      {
        path: 'screens.0.components.2.type',
        message: expect.stringMatching(/not known/) as string,
        entity: { table: 'components', id: odd },
      },
    ]);
  });

  it('reports references to things that were deleted, and fields of another collection', () => {
    const doc = newDoc();
    const newId = idFactory();
    const home = createApp(doc, newId, { title: 'Books' });
    const books = addCollection(doc, newId, 'Books');
    const people = addCollection(doc, newId, 'People');
    const name = addField(doc, newId, people, { name: 'Name', type: 'text' });
    const save = addAction(doc, newId, 'Save');
    addStep(doc, newId, save, 'toast');
    const button = addComponent(doc, newId, home, 'button');
    setComponentProps(doc, button, { actionId: save });
    const list = addComponent(doc, newId, home, 'list');
    setComponentProps(doc, list, { collectionId: books });
    propsOf(doc, list).set('titleFieldId', name);
    propsOf(doc, list).set('columnFieldIds', [name]);
    removeAction(doc, save);

    const check = checkForPublish(doc);
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.problems).toEqual([
      {
        path: 'screens.0.components.0.props.actionId',
        message: expect.stringMatching(/action this points to no longer exists/) as string,
        entity: { table: 'components', id: button },
      },
      {
        path: 'screens.0.components.1.props.columnFieldIds.0',
        message: expect.stringMatching(/another collection/) as string,
        entity: { table: 'components', id: list },
      },
      {
        path: 'screens.0.components.1.props.titleFieldId',
        message: expect.stringMatching(/another collection/) as string,
        entity: { table: 'components', id: list },
      },
    ]);
  });

  it('refuses an AI action whose new record is of another collection than the one it returns', () => {
    const doc = newDoc();
    const newId = idFactory();
    createApp(doc, newId, { title: 'Recipes' });
    const recipes = addCollection(doc, newId, 'Recipes');
    const lists = addCollection(doc, newId, 'Lists');
    const ai = addAiAction(doc, newId, 'Plan');
    setAiAction(doc, ai, {
      prompt: 'Plan a list',
      output: { kind: 'record', collectionId: recipes },
      target: { kind: 'createRecord', collectionId: lists },
    });
    const check = checkForPublish(doc);
    expect(check.ok).toBe(false);
    if (!check.ok) {
      expect(check.problems).toEqual([
        {
          path: 'aiActions.0.target.collectionId',
          message:
            'The new record must be of the collection the AI returns. Choose the same collection for both.',
          entity: { table: 'aiActions', id: ai },
        },
      ]);
    }

    // The same collection for both, or a text output into a new record, publishes.
    setAiAction(doc, ai, { target: { kind: 'createRecord', collectionId: recipes } });
    expect(checkForPublish(doc).ok).toBe(true);
    setAiAction(doc, ai, {
      output: { kind: 'text' },
      target: { kind: 'createRecord', collectionId: lists },
    });
    expect(checkForPublish(doc).ok).toBe(true);
  });

  it('reports shape and reference problems together, so one round fixes them all', () => {
    const doc = newDoc();
    const newId = idFactory();
    const home = createApp(doc, newId, { title: 'Both' });
    const image = addComponent(doc, newId, home, 'image');
    propsOf(doc, image).set('src', 'data:text/html,hi');
    const button = addComponent(doc, newId, home, 'button');
    propsOf(doc, button).set('actionId', 'gone');
    const check = checkForPublish(doc);
    expect(check.ok).toBe(false);
    if (!check.ok) {
      expect(check.problems.map((p) => [p.path, p.entity?.id])).toEqual([
        ['screens.0.components.0.props.src', image],
        ['screens.0.components.1.props.actionId', button],
      ]);
    }
  });

  it('names meta problems without an entity', () => {
    const doc = newDoc();
    createApp(doc, idFactory(), { title: 'Fine' });
    doc.getMap('meta').set('title', '   ');
    const check = checkForPublish(doc);
    expect(check.ok).toBe(false);
    if (!check.ok) {
      expect(check.problems).toEqual([
        { path: 'meta.title', message: 'Give the app a title.', entity: null },
      ]);
    }
  });
});

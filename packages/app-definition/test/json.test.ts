import { describe, expect, it } from 'vitest';
import {
  addCollection,
  addComponent,
  addField,
  addRecord,
  appDefinitionSchema,
  createApp,
  DefinitionError,
  exportDefinition,
  parseImport,
  readDefinition,
  SCHEMA_VERSION,
  setComponentProps,
  writeDefinition,
} from '../src/index';
import { idFactory, newDoc } from './support';

describe('JSON export and import', () => {
  it('round-trips an app exactly into a new document', () => {
    const doc = newDoc();
    const newId = idFactory();
    const home = createApp(doc, newId, { title: 'Recipes', tags: ['food'] });
    const recipes = addCollection(doc, newId, 'Recipes');
    const name = addField(doc, newId, recipes, { name: 'Name', type: 'text', required: true });
    addRecord(doc, newId, recipes, { [name]: 'Pancakes' });
    const list = addComponent(doc, newId, home, 'list');
    setComponentProps(doc, list, { collectionId: recipes, titleFieldId: name });
    const original = readDefinition(doc);

    const imported = parseImport(exportDefinition(original));
    const copy = newDoc();
    writeDefinition(copy, imported);
    expect(readDefinition(copy)).toEqual(original);
    expect(appDefinitionSchema.safeParse(readDefinition(copy)).success).toBe(true);
  });

  it.each([
    ['not JSON', 'hello', /^This file isn’t a Pipit file\. Choose a \.pipit or \.json file/],
    ['another JSON file', '{"name":"package"}', /^This file isn’t a Pipit file\./],
    [
      'a newer version',
      JSON.stringify({ format: 'pipit-app', definition: { schemaVersion: SCHEMA_VERSION + 1 } }),
      /newer version/,
    ],
    ['no version', JSON.stringify({ format: 'pipit-app', definition: {} }), /which version/],
    [
      'an invalid app',
      JSON.stringify({
        format: 'pipit-app',
        definition: {
          schemaVersion: 1,
          meta: { title: '' },
          theme: {},
          screens: [],
          collections: [],
          actions: [],
          aiActions: [],
        },
      }),
      'This app can’t be imported. The app’s title: Give the app a title. The app’s screens: An app needs at least one screen.',
    ],
  ])('refuses %s with a clear message', (_what, text, message) => {
    expect(() => parseImport(text)).toThrow(DefinitionError);
    expect(() => parseImport(text)).toThrow(message);
  });
});

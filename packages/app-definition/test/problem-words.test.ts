import { describe, expect, it } from 'vitest';
import { placeInDefinition } from '../src/index';

/** A refused definition says where, in words a person knows, never a dotted path. */
describe('placeInDefinition', () => {
  const value = {
    meta: { title: 'Shop' },
    screens: [
      { id: 's1', title: 'Home', components: [{ id: 'c1', type: 'timer', props: {} }] },
      { id: 's2', title: '', components: [] },
    ],
    collections: [
      { id: 'k1', name: 'Books', fields: [{ id: 'f1', name: 'Title' }], records: [{ id: 'r1' }] },
    ],
    actions: [{ id: 'a1', name: 'Save', steps: [{ id: 't1', type: 'toast' }] }],
    aiActions: [{ id: 'x1', name: 'Suggest' }],
  };

  it.each([
    [[], ''],
    [['meta', 'title'], 'the app’s title'],
    [['theme', 'primary'], 'the theme’s primary'],
    [['screens'], 'the app’s screens'],
    [['screens', 0, 'title'], 'the screen “Home”, its title'],
    [['screens', 1, 'icon'], 'screen 2, its icon'],
    [
      ['screens', 0, 'components', 0, 'props', 'seconds'],
      'component 1 (a timer) of the screen “Home”, its seconds',
    ],
    [
      ['collections', 0, 'fields', 0, 'options'],
      'the field “Title” of the collection “Books”, its choices',
    ],
    [
      ['collections', 0, 'records', 0, 'values', 'f1'],
      'record 1 of the collection “Books”, its value for “Title”',
    ],
    [['actions', 0, 'steps', 0, 'props', 'message'], 'step 1 of the action “Save”, its message'],
    [['aiActions', 0, 'prompt'], 'the AI action “Suggest”, its prompt'],
  ] as Array<[PropertyKey[], string]>)('%j reads as “%s”', (path, words) => {
    expect(placeInDefinition(value, path)).toBe(words);
  });
});

import { type Collection, COLLECTION_SHARING, RECORD_RULES } from '@pipit/app-definition';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CollectionSharing } from './collection-sharing';
import { EditorContext, type EditorContextValue } from '../common/editor-context';
import { RECORD_RULE_CHOICES, SHARING_CHOICES } from './sharing-choices';

function groceries(patch: Partial<Collection> = {}): Collection {
  return {
    id: 'groceries',
    name: 'Groceries',
    fields: [],
    records: [],
    sharing: 'private',
    recordRule: 'anyone',
    ...patch,
  };
}

/** The control as the editor shows it; only what rendering reads of the editor is given. */
function render(collection: Collection, readOnly = false): string {
  const editor = { readOnly, handle: { edit: () => undefined } } as unknown as EditorContextValue;
  return renderToStaticMarkup(
    createElement(
      EditorContext.Provider,
      { value: editor },
      createElement(CollectionSharing, { collection }),
    ),
  );
}

/** The radio buttons of the markup: their label text, and whether each is checked. */
function radios(html: string): Array<[string, boolean]> {
  return [...html.matchAll(/<label[^>]*><input type="radio"([^>]*)\/><span><strong>([^<]*)</g)].map(
    (m) => [m[2]!, m[1]!.includes('checked')],
  );
}

describe('the collection’s sharing control', () => {
  it('names every choice the definition has, with a hint', () => {
    for (const value of COLLECTION_SHARING) expect(SHARING_CHOICES[value].hint).not.toBe('');
    for (const value of RECORD_RULES) expect(RECORD_RULE_CHOICES[value].hint).not.toBe('');
  });

  it('offers private or shared, under its legend, and no rule while private', () => {
    const html = render(groceries());
    expect(html).toContain(
      '<legend class="field__label">Who sees the records visitors add</legend>',
    );
    expect(html).toContain('don’t see inside spaces');
    expect(html).not.toContain('Who can change a record');
    expect(radios(html)).toEqual([
      ['Each visitor, privately', true],
      ['Everyone in a shared space', false],
    ]);
  });

  it('asks who can change a record once shared', () => {
    const html = render(groceries({ sharing: 'space', recordRule: 'author' }));
    expect(html).toContain('<legend class="field__label">Who can change a record</legend>');
    expect(radios(html)).toEqual([
      ['Each visitor, privately', false],
      ['Everyone in a shared space', true],
      ['Anyone in the space', false],
      ['Only the person who added it', true],
    ]);
  });

  it('describes each choice by its hint and is disabled for a viewer', () => {
    const html = render(groceries({ sharing: 'space' }), true);
    for (const [, id] of html.matchAll(/<input [^>]*aria-describedby="([^"]+)"/g)) {
      expect(html).toContain(`id="${id}"`);
    }
    expect(html.match(/<fieldset class="choice-group" disabled=""/g)).toHaveLength(2);
  });
});

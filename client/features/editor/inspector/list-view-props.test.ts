import { COMPONENT_PROPS, fieldSchema } from '@pipit/app-definition';
import { describe, expect, it } from 'vitest';
import { fieldsForProp, propShown, viewPatch } from './list-view-props';
import { describeProp, type PropSchema } from './prop-schema';

const fields = [
  fieldSchema.parse({ id: 'title', name: 'Title', type: 'text' }),
  fieldSchema.parse({ id: 'status', name: 'Status', type: 'select', options: ['To do', 'Done'] }),
  fieldSchema.parse({ id: 'due', name: 'Due', type: 'date' }),
  fieldSchema.parse({ id: 'cover', name: 'Cover', type: 'url' }),
];
const groups = [{ id: 'c', label: 'Tasks', fields }];
const shape = COMPONENT_PROPS.list.shape as unknown as Record<string, PropSchema>;
const shownFor = (view: string) => Object.keys(shape).filter((key) => propShown(key, { view }));

describe('a list’s inspector', () => {
  it('shows each view’s own properties for that view only', () => {
    const common = ['collectionId', 'view', 'titleFieldId', 'subtitleFieldId', 'filter', 'sort'];
    expect(shownFor('list')).toEqual(expect.arrayContaining([...common, 'search']));
    expect(shownFor('list')).not.toContain('columnFieldIds');
    expect(shownFor('table')).toContain('columnFieldIds');
    expect(shownFor('board')).toContain('groupFieldId');
    expect(shownFor('calendar')).toEqual(expect.arrayContaining(['dateFieldId', 'addScreenId']));
    expect(shownFor('gallery')).toContain('imageFieldId');
    expect(shownFor('gallery')).not.toContain('dateFieldId');
    // A list saved before views existed has no view: the plain list's properties.
    expect(propShown('groupFieldId', {})).toBe(false);
    expect(propShown('label', {})).toBe(true);
  });

  it('offers a view’s field picker only the fields of the types it takes', () => {
    const offered = (key: string) => fieldsForProp(key, groups)[0]!.fields.map((f) => f.id);
    expect(offered('groupFieldId')).toEqual(['status']);
    expect(offered('dateFieldId')).toEqual(['due']);
    expect(offered('imageFieldId')).toEqual(['cover']);
    expect(offered('titleFieldId')).toEqual(['title', 'status', 'due', 'cover']);
  });

  it('picks the field a chosen view needs when none is set, and keeps one that is', () => {
    expect(viewPatch('board', {}, fields)).toEqual({ view: 'board', groupFieldId: 'status' });
    expect(viewPatch('calendar', { dateFieldId: 'x' }, fields)).toEqual({ view: 'calendar' });
    expect(viewPatch('table', {}, fields)).toEqual({ view: 'table' });
    expect(viewPatch('gallery', {}, fields.slice(0, 1))).toEqual({ view: 'gallery' });
  });

  it('edits a table’s columns as a checklist and the view as a choice', () => {
    expect(describeProp('columnFieldIds', shape.columnFieldIds!)).toEqual({ kind: 'field-list' });
    expect(describeProp('view', shape.view!)).toEqual({
      kind: 'choice',
      options: ['list', 'table', 'board', 'calendar', 'gallery'],
    });
    expect(describeProp('addScreenId', shape.addScreenId!)).toMatchObject({
      kind: 'reference',
      table: 'screens',
    });
    expect(describeProp('search', shape.search!)).toEqual({ kind: 'boolean' });
  });
});

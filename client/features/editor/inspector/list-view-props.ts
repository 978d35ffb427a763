import {
  type Field,
  fitsViewField,
  type ListView,
  VIEW_FIELD_TYPES,
  VIEW_ONLY_PROPS,
  type ViewFieldKey,
} from '@pipit/app-definition';
import type { FieldGroup } from './field-groups';

/*
 * A list's inspector follows its view (docs/product/app-definition.md, "Views of a list"): a
 * property only one view uses shows for that view alone, a view's field picker offers only the
 * fields that view can use, and choosing a view picks its field when none is chosen yet, so the
 * preview shows the view at once rather than a note asking for it.
 */

/** Whether a property shows for the component's values: a table's columns only on a table. */
export function propShown(key: string, values: Record<string, unknown>): boolean {
  const only = VIEW_ONLY_PROPS[key];
  return only === undefined || (values.view ?? 'list') === only;
}

function isViewFieldKey(key: string): key is ViewFieldKey {
  return Object.hasOwn(VIEW_FIELD_TYPES, key);
}

/** The fields a property's picker offers: for a view's field, those of the types it takes. */
export function fieldsForProp(key: string, groups: FieldGroup[]): FieldGroup[] {
  if (!isViewFieldKey(key)) return groups;
  return groups.map((g) => ({ ...g, fields: g.fields.filter((f) => fitsViewField(key, f.type)) }));
}

/** The field property a view needs, if any (a board's group field, …). */
function fieldKeyOf(view: string): ViewFieldKey | undefined {
  return (Object.keys(VIEW_FIELD_TYPES) as ViewFieldKey[]).find(
    (key) => VIEW_ONLY_PROPS[key] === view,
  );
}

/**
 * What choosing `view` writes: the view, and its field when none is set yet and the collection
 * has one that fits (`fields`: the chosen collection's).
 */
export function viewPatch(
  view: ListView,
  values: Record<string, unknown>,
  fields: readonly Field[],
): Record<string, unknown> {
  const patch: Record<string, unknown> = { view };
  const key = fieldKeyOf(view);
  if (key && typeof values[key] !== 'string') {
    const first = fields.find((f) => fitsViewField(key, f.type));
    if (first) patch[key] = first.id;
  }
  return patch;
}

/** What each view's properties are for, under their inputs. */
export const VIEW_PROP_HINTS: Readonly<Record<string, string>> = {
  columnFieldIds: 'None ticked: the first six fields.',
  groupFieldId: 'A Choice field: each of its choices is a column.',
  dateFieldId: 'A Date field: each item shows on its day.',
  imageFieldId:
    'A Photo field (its thumbnails), or a Web address field holding each picture’s address.',
  addScreenId:
    'A screen with a form that adds to this collection: tapping a day opens it with that date filled in.',
  search: 'A search box, and a row of choices when the collection has a Choice or Yes / no field.',
};

/** Why a view's field picker offers nothing. */
export const VIEW_FIELD_MISSING: Readonly<Record<ViewFieldKey, string>> = {
  groupFieldId: 'Add a Choice field to this collection in the Collections tab first.',
  dateFieldId: 'Add a Date field to this collection in the Collections tab first.',
  imageFieldId: 'Add a Photo field, or a Web address field for pictures, to this collection first.',
};

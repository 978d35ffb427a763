/*
 * How a list component shows its records (docs/product/app-definition.md, "Views of a list"): the
 * plain list, or a table, a board, a calendar or a gallery. Plain constants in a module without
 * zod: the installed app's runtime reads them, and a classic-zod module would bring all of zod to
 * its first visit (docs/decisions/0003-zod-mini-on-the-installed-app.md).
 */

export const LIST_VIEWS = ['list', 'table', 'board', 'calendar', 'gallery'] as const;
export type ListView = (typeof LIST_VIEWS)[number];

/** The list properties that point at a field one view needs. */
export type ViewFieldKey = 'groupFieldId' | 'dateFieldId' | 'imageFieldId';

/**
 * The field types each view's field may have. Strings rather than `FieldType`s, so a type another
 * change adds to FIELD_TYPES (`dateTime`, `image`) is taken as soon as it exists, and until then
 * simply matches no field.
 */
export const VIEW_FIELD_TYPES: Readonly<Record<ViewFieldKey, readonly string[]>> = {
  /** A board has one column per choice. */
  groupFieldId: ['select'],
  dateFieldId: ['date', 'dateTime'],
  /** A web address holding a picture, or an uploaded image. */
  imageFieldId: ['image', 'url'],
};

/** Whether a field of `type` can be a view's `key` field. */
export function fitsViewField(key: ViewFieldKey, type: string): boolean {
  return VIEW_FIELD_TYPES[key].includes(type);
}

/**
 * The properties only one view uses, so the editor shows them for that view alone. `search` and
 * the list's own properties (title, subtitle, filter, sort…) apply to every view.
 */
export const VIEW_ONLY_PROPS: Readonly<Record<string, ListView>> = {
  columnFieldIds: 'table',
  groupFieldId: 'board',
  dateFieldId: 'calendar',
  addScreenId: 'calendar',
  imageFieldId: 'gallery',
};

/** A table with no columns chosen shows the collection's first fields, as many as fit a laptop. */
export const TABLE_DEFAULT_COLUMNS = 6;

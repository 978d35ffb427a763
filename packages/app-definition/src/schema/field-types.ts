/*
 * The field types (docs/product/app-definition.md, "What a definition holds"). Plain constants in a
 * module without zod: the installed app reads them, and importing the classic-zod definition
 * module would bring all of zod to its first visit
 * (docs/decisions/0003-zod-mini-on-the-installed-app.md).
 */

export const FIELD_TYPES = [
  'text',
  'longText',
  'number',
  'boolean',
  'date',
  'select',
  'url',
  'email',
  /** Any number of the field's choices (tags), stored as a list of them. */
  'multiChoice',
  /** Whole stars from 1 to the field's scale; none is empty. */
  'rating',
  /** An amount in the app's currency (meta.currency), stored as a number. */
  'currency',
  /** A length of time, stored in seconds. */
  'duration',
  /** A moment, stored as an ISO instant in UTC and shown in the person's own time zone. */
  'dateTime',
  /** Computed from the record's other fields by its formula; never stored. */
  'formula',
  /** Links to records of another collection (`target`): one, or several with `many`. */
  'relation',
  /** A count, sum, average, min, max or latest value over the records a relation links. */
  'rollup',
  /** A photo: a reference to its bytes (schema/file-reference.ts), kept beside the records. */
  'image',
  /** A file of any kind, with a size limit: a reference like an image's. */
  'file',
  /**
   * One of a space's people ("assigned to"): their account id, so a rename changes nothing; shown
   * by the name the space's members know them by (schema/person.ts).
   */
  'person',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** Field types whose value is computed, not typed in: forms leave them out, records don't hold them. */
export const COMPUTED_FIELD_TYPES: readonly FieldType[] = ['formula', 'rollup'];
/** Field types whose value names bytes kept beside the records (schema/file-reference.ts). */
export const FILE_FIELD_TYPES: readonly FieldType[] = ['image', 'file'];
/** Field types whose values are numbers: what a stat or a chart adds up. */
export const NUMERIC_FIELD_TYPES: readonly FieldType[] = [
  'number',
  'currency',
  'rating',
  'duration',
];
/**
 * Field types that hold what people type: what AI answers and samples may fill. A relation is
 * picked too, but its values are other records' ids, a person's an account's id, and a photo or
 * file is bytes: none is ever made up.
 */
export const TYPED_FIELD_TYPES = FIELD_TYPES.filter(
  (t) =>
    !COMPUTED_FIELD_TYPES.includes(t) &&
    t !== 'relation' &&
    t !== 'person' &&
    !FILE_FIELD_TYPES.includes(t),
) as [FieldType, ...FieldType[]];

/**
 * The settings only some field types carry (a rating's stars, a formula, a relation's collection, a
 * rollup's relation…): a field holds each only when its type needs it, so other fields' JSON stays
 * as it was. Operations, templates and the publish check read this one list.
 */
export const FIELD_SETTINGS = [
  'scale',
  'formula',
  'target',
  'many',
  'through',
  'throughCollection',
  'aggregate',
  'aggregateFieldId',
] as const;
export type FieldSetting = (typeof FIELD_SETTINGS)[number];

import {
  type Collection,
  type ComponentProps,
  DEFAULT_CURRENCY,
  type Field,
  type FieldValue,
  parseFileReference,
} from '@pipit/app-definition';

export type RecordValue = FieldValue | undefined;
/**
 * Anything with values by field id: a creator record, a visitor record, or the runtime's view of
 * either (which also says whose it is). The functions below keep the type they are given.
 */
export interface ValuesRecord {
  values: Readonly<Record<string, RecordValue>>;
  /**
   * What a value reads as when it is not its own text, by field id: a relation's linked records,
   * by their titles (runtime-records.ts works these out with the rest of the record).
   */
  shown?: Readonly<Record<string, string>>;
}
export type ListFilter = NonNullable<ComponentProps<'list'>['filter']>;
export type ListSort = NonNullable<ComponentProps<'list'>['sort']>;
export type Aggregate = ComponentProps<'stat'>['aggregate'];

export function findCollection(
  collections: Collection[],
  collectionId: string | null,
): Collection | null {
  return collections.find((c) => c.id === collectionId) ?? null;
}

export function findField(collection: Collection, fieldId: string | null): Field | null {
  return collection.fields.find((f) => f.id === fieldId) ?? null;
}

export function isEmpty(value: RecordValue): boolean {
  return (
    value === null || value === undefined || value === '' || (Array.isArray(value) && !value.length)
  );
}

/** A number from a number or a numeric string; null for anything else. */
export function toNumber(value: RecordValue): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/** Numbers compare as numbers, everything else as text (ISO dates sort correctly as text). */
function compareValues(a: RecordValue, b: RecordValue): number {
  const na = toNumber(a);
  const nb = toNumber(b);
  if (na !== null && nb !== null) return na - nb;
  return textOrder().compare(String(a), String(b));
}

/**
 * Made on first use and kept: `localeCompare` with options builds a collator per call (a sort of
 * a thousand records made thousands), and a page's first one loads the browser's locale data.
 */
let collator: Intl.Collator | undefined;
const textOrder = () =>
  (collator ??= new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' }));

export function matchesFilter(record: ValuesRecord, filter: ListFilter): boolean {
  const value = record.values[filter.fieldId];
  const wanted = filter.value.trim().toLowerCase();
  // A multi-choice value equals a choice it holds, and contains text any of its choices contains.
  const texts = isEmpty(value)
    ? ['']
    : Array.isArray(value)
      ? value.map((v) => v.toLowerCase())
      : [String(value).toLowerCase()];
  const text = texts.join(', ');
  switch (filter.op) {
    case 'equals':
      return texts.includes(wanted);
    case 'notEquals':
      return !texts.includes(wanted);
    case 'contains':
      return texts.some((t) => t.includes(wanted));
    case 'greaterThan':
      return !isEmpty(value) && compareValues(value, filter.value) > 0;
    case 'lessThan':
      return !isEmpty(value) && compareValues(value, filter.value) < 0;
    case 'isTrue':
      return value === true || text === 'true';
    case 'isFalse':
      return !(value === true || text === 'true');
    case 'isEmpty':
      return isEmpty(value);
    case 'isNotEmpty':
      return !isEmpty(value);
  }
}

/** Sorted copy; empty values go last in either direction, ties keep their order. */
export function sortRecords<R extends ValuesRecord>(records: readonly R[], sort: ListSort): R[] {
  const sign = sort.direction === 'desc' ? -1 : 1;
  return [...records].sort((a, b) => {
    const va = a.values[sort.fieldId];
    const vb = b.values[sort.fieldId];
    if (isEmpty(va) || isEmpty(vb)) return Number(isEmpty(va)) - Number(isEmpty(vb));
    return sign * compareValues(va, vb);
  });
}

/** The records a list shows: its filter, then its sort. */
export function queryRecords<R extends ValuesRecord>(
  records: readonly R[],
  options: { filter?: ListFilter | null; sort?: ListSort | null },
): R[] {
  const { filter, sort } = options;
  const kept = filter ? records.filter((r) => matchesFilter(r, filter)) : records;
  return sort ? sortRecords(kept, sort) : [...kept];
}

/**
 * count is the number of records; the others use the field's numeric values and ignore the rest.
 * null when there is nothing to compute (no field, or no numbers).
 */
export function aggregateRecords(
  records: readonly ValuesRecord[],
  aggregate: Aggregate,
  fieldId: string | null,
): number | null {
  if (aggregate === 'count') return records.length;
  if (!fieldId) return null;
  const numbers = records
    .map((r) => toNumber(r.values[fieldId]))
    .filter((n): n is number => n !== null);
  if (numbers.length === 0) return aggregate === 'sum' ? 0 : null;
  switch (aggregate) {
    case 'sum':
      return numbers.reduce((s, n) => s + n, 0);
    case 'average':
      return numbers.reduce((s, n) => s + n, 0) / numbers.length;
    case 'min':
      return Math.min(...numbers);
    case 'max':
      return Math.max(...numbers);
  }
}

/** Made on first use and kept, as the collator is. */
let numberFormat: Intl.NumberFormat | undefined;

/**
 * Numbers already written, by value: a list of thousands of records writes the same few numbers
 * (a rollup's total, a count) over and over, and each `format` call costs microseconds. Bounded;
 * emptied when full.
 */
const formattedNumbers = new Map<number, string>();

export function formatNumber(value: number | null): string {
  if (value === null) return '—';
  // A map takes -0 for 0; Intl writes it "-0".
  let text = Object.is(value, -0) ? undefined : formattedNumbers.get(value);
  if (text === undefined) {
    numberFormat ??= new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });
    text = numberFormat.format(value);
    if (formattedNumbers.size >= 2000) formattedNumbers.clear();
    formattedNumbers.set(value, text);
  }
  return text;
}

/** A yes/no value is ticked when it is true (or the text `true`, from an older import). */
export function isChecked(value: RecordValue): boolean {
  return value === true || value === 'true';
}

/** Formats made on first use and kept, by currency code. */
const currencyFormats = new Map<string, Intl.NumberFormat>();

function formatMoney(amount: number, currency: string): string {
  let format = currencyFormats.get(currency);
  if (!format) {
    try {
      format = new Intl.NumberFormat(undefined, { style: 'currency', currency });
    } catch {
      // A code this browser doesn't know: the amount with the code beside it.
      format = new Intl.NumberFormat(undefined, { minimumFractionDigits: 2 });
      return `${format.format(amount)} ${currency}`;
    }
    currencyFormats.set(currency, format);
  }
  return format.format(amount);
}

/** A duration in seconds as people say it: "1 h 30 min", "45 min", "20 s". */
export function formatDuration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = whole % 60;
  const parts = [
    hours ? `${formatNumber(hours)} h` : '',
    minutes ? `${minutes} min` : '',
    rest || whole === 0 ? `${rest} s` : '',
  ];
  return parts.filter(Boolean).join(' ');
}

let dateTimeFormat: Intl.DateTimeFormat | undefined;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A moment in this device's time zone, the way the person reads dates. */
export function formatDateTime(iso: string): string {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return iso;
  dateTimeFormat ??= new Intl.DateTimeFormat(undefined, {
    dateStyle: 'medium',
    timeStyle: 'short',
  });
  return dateTimeFormat.format(ms);
}

/** A rating as stars: ★★★☆☆ for 3 of 5. */
export function formatRating(stars: number, scale = 5): string {
  const full = Math.max(0, Math.min(scale, Math.round(stars)));
  return '★'.repeat(full) + '☆'.repeat(scale - full);
}

/** Who a person field's value is while the space's people are not known (runtime-records.ts). */
export const SOMEONE = 'someone in the space';

/**
 * A value as text for display; '' when empty. `currency` is the app's (meta.currency), for
 * currency fields.
 */
export function formatValue(
  value: RecordValue,
  field: Field | null,
  currency: string = DEFAULT_CURRENCY,
): string {
  if (isEmpty(value)) return '';
  // A photo or file reads as its name (a gallery or the detail shows the photo itself).
  if (field?.type === 'image' || field?.type === 'file')
    return parseFileReference(value)?.name ?? '';
  if (typeof value === 'boolean' || field?.type === 'boolean')
    return isChecked(value) ? 'Yes' : 'No';
  // An account id means nothing to read: a record's `shown` names them when the people are known.
  if (field?.type === 'person') return SOMEONE;
  if (Array.isArray(value)) return value.join(', ');
  if (typeof value === 'number') {
    switch (field?.type) {
      case 'currency':
        return formatMoney(value, currency);
      case 'duration':
        return formatDuration(value);
      case 'rating':
        return formatRating(value, field.scale);
      default:
        return formatNumber(value);
    }
  }
  // A formula's moment (NOW(), a date and time it passes on) reads like a date-and-time field's.
  const instant = field?.type === 'formula' && typeof value === 'string' && ISO_INSTANT.test(value);
  if ((field?.type === 'dateTime' || instant) && typeof value === 'string')
    return formatDateTime(value);
  return String(value);
}

/** A field of a record as text for display ('' when empty): a relation's value by its titles. */
export function fieldText(
  record: ValuesRecord,
  field: Field | null,
  currency: string = DEFAULT_CURRENCY,
): string {
  if (!field) return '';
  return record.shown?.[field.id] ?? formatValue(record.values[field.id], field, currency);
}

/** What a screen reader says for a value whose text is a picture (a rating's stars). */
export function spokenValue(value: RecordValue, field: Field | null): string | undefined {
  if (field?.type === 'rating' && typeof value === 'number')
    return `${value} of ${field.scale ?? 5} stars`;
  return undefined;
}

export interface ChartPoint {
  label: string;
  value: number;
}

/** The most groups a chart draws; more would not be readable on a phone. */
export const CHART_MAX_GROUPS = 12;

/**
 * Records grouped by the label field's value, each group reduced by count/sum/average. The records
 * are the collection's creator records unless others are given (a running app adds the visitor's).
 */
export function chartSeries(
  collection: Collection,
  props: Pick<ComponentProps<'chart'>, 'labelFieldId' | 'valueFieldId' | 'aggregate'>,
  records: readonly ValuesRecord[] = collection.records,
): ChartPoint[] {
  const labelField = findField(collection, props.labelFieldId);
  const groups = new Map<string, ValuesRecord[]>();
  for (const record of records) {
    const label = labelField ? fieldText(record, labelField) || '(empty)' : 'All';
    const group = groups.get(label);
    if (group) group.push(record);
    else if (groups.size < CHART_MAX_GROUPS) groups.set(label, [record]);
  }
  return [...groups].map(([label, group]) => ({
    label,
    value: aggregateRecords(group, props.aggregate, props.valueFieldId) ?? 0,
  }));
}

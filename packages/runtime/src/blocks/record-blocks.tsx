import { type ComponentProps, DEFAULT_CURRENCY, type Field } from '@pipit/app-definition';
import {
  aggregateRecords,
  fieldText,
  findCollection,
  findField,
  formatNumber,
  formatValue,
  spokenValue,
} from '../records';
import { recordsFor, type RenderContext } from '../render-context';
import { useLazyModule } from '../lazy-module';
import { hasLinks } from '../link-engine';
import { linkedRecordsModule } from '../linked-records-part';
import { SafeLink } from '../safe-link';
import { SetupNote } from './setup-note';
import { FileImage, FileLink } from '../file-values';

const AGGREGATE_WORDS: Record<ComponentProps<'stat'>['aggregate'], string> = {
  count: 'count',
  sum: 'total',
  average: 'average',
  min: 'lowest',
  max: 'highest',
};

/** Whether some relation links records of `collectionId`: the detail then lists who links here. */
function linkedFrom(context: RenderContext, collectionId: string): boolean {
  return context.definition.collections.some((c) =>
    c.fields.some((f) => f.type === 'relation' && f.target === collectionId),
  );
}

/**
 * The fields of the current record (the one a list item opened). The editor's preview has no
 * current record and shows the collection's first creator record.
 */
export function DetailBlock({
  props,
  context,
}: {
  props: ComponentProps<'detail'>;
  context: RenderContext;
}) {
  // Linked records load with relations themselves (parts.ts), only in apps that have them; until
  // then a relation shows its linked records' names.
  const links = useLazyModule(linkedRecordsModule, hasLinks(context.definition));
  const firstFieldId = props.fieldIds[0];
  const collection = context.definition.collections.find((c) =>
    c.fields.some((f) => f.id === firstFieldId),
  );
  if (!collection) return <SetupNote>Choose the fields to show.</SetupNote>;
  const { run } = context;
  const record = run
    ? run.current?.collectionId === collection.id
      ? run.current
      : undefined
    : collection.records[0];
  if (!record) {
    return (
      <p className="rt-card rt-muted rt-empty">
        {run
          ? `Open an item from a list of ${collection.name} to see it here.`
          : 'No record to show yet.'}
      </p>
    );
  }
  const currency = context.definition.meta.currency ?? DEFAULT_CURRENCY;
  // A shared space's record says who added it.
  const authorName = run?.current === record ? run.current.authorName : undefined;
  const recordId = run?.current === record ? run.current.id : (record as { id?: string }).id;
  return (
    <dl className="rt-card rt-detail">
      {props.fieldIds.map((fieldId) => {
        const field = findField(collection, fieldId);
        if (!field) return null;
        const value = record.values[field.id];
        const text = fieldText(record, field, currency);
        const spoken = spokenValue(value, field);
        const formulaError =
          run?.current === record ? run.current.formulaErrors?.[field.id] : undefined;
        if (field.type === 'relation' && text && !formulaError)
          return (
            <div key={field.id} className="rt-detail-row">
              <dt>{field.name}</dt>
              <dd>
                {links ? (
                  <links.LinkedRecords context={context} field={field} value={value} />
                ) : (
                  text
                )}
              </dd>
            </div>
          );
        return (
          <div key={field.id} className="rt-detail-row">
            <dt>{field.name}</dt>
            <dd>
              {formulaError ? (
                <span className="rt-muted">
                  <span aria-hidden="true">⚠️ </span>
                  {formulaError}
                </span>
              ) : !text ? (
                <span className="rt-muted">—</span>
              ) : field.type === 'image' ? (
                <FileImage
                  files={run?.files}
                  collectionId={collection.id}
                  value={value}
                  alt={`${field.name}: ${text}`}
                  className="rt-detail-image"
                />
              ) : field.type === 'file' ? (
                <FileLink files={run?.files} collectionId={collection.id} value={value} />
              ) : field.type === 'url' ? (
                <SafeLink url={text}>{text}</SafeLink>
              ) : spoken ? (
                <span role="img" aria-label={spoken}>
                  {text}
                </span>
              ) : (
                text
              )}
            </dd>
          </div>
        );
      })}
      {authorName ? (
        <div className="rt-detail-row">
          <dt>Added by</dt>
          <dd dir="auto">{authorName}</dd>
        </div>
      ) : null}
      {links && recordId && linkedFrom(context, collection.id) ? (
        <links.LinksHere context={context} record={{ id: recordId, collectionId: collection.id }} />
      ) : null}
    </dl>
  );
}

/** A total of money reads as money and one of durations as a duration; anything else as a number. */
function statText(
  value: number | null,
  aggregate: ComponentProps<'stat'>['aggregate'],
  field: Field | null,
  currency: string,
): string {
  const unit = field?.type === 'currency' || field?.type === 'duration';
  return value !== null && aggregate !== 'count' && unit
    ? formatValue(value, field, currency)
    : formatNumber(value);
}

export function StatBlock({
  props,
  context,
}: {
  props: ComponentProps<'stat'>;
  context: RenderContext;
}) {
  const collection = findCollection(context.definition.collections, props.collectionId);
  if (!collection) return <SetupNote>Choose a collection for this number.</SetupNote>;
  const value = aggregateRecords(recordsFor(context, collection), props.aggregate, props.fieldId);
  const field = findField(collection, props.fieldId);
  const of = props.aggregate === 'count' ? collection.name : (field?.name ?? 'no field chosen');
  const currency = context.definition.meta.currency ?? DEFAULT_CURRENCY;
  return (
    <div className="rt-card rt-stat">
      <span className="rt-stat-label">{props.label}</span>
      <span className="rt-stat-value">{statText(value, props.aggregate, field, currency)}</span>
      <span className="rt-stat-caption rt-muted">
        {AGGREGATE_WORDS[props.aggregate]} of {of}
      </span>
    </div>
  );
}

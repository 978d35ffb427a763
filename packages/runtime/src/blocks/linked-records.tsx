import {
  type Collection,
  DEFAULT_CURRENCY,
  type Field,
  linkedIds,
  type ReadDefinition,
} from '@pipit/app-definition';
import type { RecordValue } from '../records';
import { linksTo, recordName } from '../relations';
import type { RenderContext } from '../render-context';
import type { RuntimeRecord } from '../runtime-data';

/*
 * Linked records in a detail, both ways: a relation's records, and the records elsewhere whose
 * relations link this one. Each opens where a list of its collection opens records, if any does.
 */

/** The screen a list of `collectionId` opens its records on, or null when none does. */
function detailScreenOf(definition: ReadDefinition, collectionId: string): string | null {
  for (const screen of definition.screens)
    for (const component of screen.components)
      if (
        component.type === 'list' &&
        component.props.collectionId === collectionId &&
        component.props.detailScreenId
      )
        return component.props.detailScreenId;
  return null;
}

/** A collection's records as this screen reads them: the running app's, or the creator's. */
function recordsOf(context: RenderContext, collection: Collection): readonly RuntimeRecord[] {
  if (context.run) return context.run.recordsOf(collection.id);
  return collection.records.map((r) => ({ ...r, collectionId: collection.id, isOwn: false }));
}

function RecordChips({
  context,
  collection,
  records,
}: {
  context: RenderContext;
  collection: Collection;
  records: readonly RuntimeRecord[];
}) {
  const currency = context.definition.meta.currency ?? DEFAULT_CURRENCY;
  const screenId = context.run ? detailScreenOf(context.definition, collection.id) : null;
  const { run } = context;
  return (
    <ul className="rt-links">
      {records.map((record) => {
        const name = recordName(collection, record, currency);
        return (
          <li key={record.id} dir="auto">
            {screenId && run ? (
              <button
                type="button"
                className="rt-link-chip"
                onClick={() => run.openRecord(screenId, record.id)}
              >
                {name}
              </button>
            ) : (
              <span className="rt-link-chip">{name}</span>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** A relation's linked records, those that still exist, in the order they were picked. */
export function LinkedRecords({
  context,
  field,
  value,
}: {
  context: RenderContext;
  field: Field;
  value: RecordValue;
}) {
  const collection = context.definition.collections.find((c) => c.id === field.target);
  if (!collection) return null;
  const all = recordsOf(context, collection);
  const records = linkedIds(value ?? null)
    .map((id) => all.find((r) => r.id === id))
    .filter((r): r is RuntimeRecord => r !== undefined);
  return <RecordChips context={context} collection={collection} records={records} />;
}

/** The records whose relations link `record`, one row per relation, as the detail's last rows. */
export function LinksHere({
  context,
  record,
}: {
  context: RenderContext;
  record: Pick<RuntimeRecord, 'id' | 'collectionId'>;
}) {
  const { definition } = context;
  const found = linksTo(definition, record, (collectionId) => {
    const collection = definition.collections.find((c) => c.id === collectionId);
    return collection ? recordsOf(context, collection) : [];
  });
  return (
    <>
      {found.map(({ collection, relation, records }) => {
        const several =
          collection.fields.filter((f) => f.type === 'relation' && f.target === record.collectionId)
            .length > 1;
        return (
          <div key={`${collection.id}:${relation.id}`} className="rt-detail-row">
            <dt>{several ? `${collection.name} (${relation.name})` : collection.name}</dt>
            <dd>
              <RecordChips context={context} collection={collection} records={records} />
            </dd>
          </div>
        );
      })}
    </>
  );
}

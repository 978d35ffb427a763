import {
  type Collection,
  type Field,
  ROLLUP_AGGREGATES,
  type RollupAggregate,
  rollupSource,
  setField,
} from '@pipit/app-definition';
import { SelectField } from '../../../ui/field';
import { useEditor } from '../common/editor-context';

/*
 * A relation's and a rollup's settings in the fields editor (docs/product/app-definition.md,
 * "Relations and rollups").
 */

type Patch = Parameters<typeof setField>[2];

const AGGREGATE_LABELS: Record<RollupAggregate, string> = {
  count: 'How many',
  sum: 'Sum',
  average: 'Average',
  min: 'Smallest',
  max: 'Largest',
  latest: 'Latest added',
};

/** Which collection a relation links to, and whether it links one record or several. */
export function RelationSettings({ field }: { field: Field }) {
  const { handle, readOnly, definition } = useEditor();
  const set = (patch: Patch) => handle.edit(setField, field.id, patch);
  return (
    <>
      <SelectField
        label="Links to"
        value={field.target ?? ''}
        disabled={readOnly}
        hint="Records of this collection can be picked in forms."
        onChange={(e) => set({ target: e.target.value || null })}
      >
        {field.target ? null : <option value="">Choose a collection</option>}
        {definition.collections.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </SelectField>
      <label className="checkbox checkbox--compact">
        <input
          type="checkbox"
          checked={field.many ?? false}
          disabled={readOnly}
          onChange={(e) => set({ many: e.target.checked || null })}
        />
        <span>Can link several records</span>
      </label>
    </>
  );
}

/** The relations a rollup of `collection` can read: its own, then those linking to it. */
function relationChoices(collections: readonly Collection[], collection: Collection) {
  const choices: Array<{ value: string; label: string; holder: string; field: string }> = [];
  for (const field of collection.fields)
    if (field.type === 'relation')
      choices.push({
        value: `${collection.id}/${field.id}`,
        label: field.name,
        holder: collection.id,
        field: field.id,
      });
  for (const other of collections)
    if (other.id !== collection.id)
      for (const field of other.fields)
        if (field.type === 'relation' && field.target === collection.id)
          choices.push({
            value: `${other.id}/${field.id}`,
            label: `${other.name} linking here (${field.name})`,
            holder: other.id,
            field: field.id,
          });
  return choices;
}

/** The collection whose records a rollup's relation links, once a relation is chosen. */
function linkedBy(collections: readonly Collection[], collection: Collection, rollup: Field) {
  const holder = collections.find((c) => c.id === (rollup.throughCollection ?? collection.id));
  const relation = holder?.fields.find((f) => f.id === rollup.through && f.type === 'relation');
  if (!holder || !relation) return undefined;
  return holder.id === collection.id ? collections.find((c) => c.id === relation.target) : holder;
}

/** Which relation a rollup reads, what it works out, and over which field of the linked records. */
export function RollupSettings({ collection, field }: { collection: Collection; field: Field }) {
  const { handle, readOnly, definition } = useEditor();
  const set = (patch: Patch) => handle.edit(setField, field.id, patch);
  const choices = relationChoices(definition.collections, collection);
  const chosen = `${field.throughCollection ?? collection.id}/${field.through ?? ''}`;
  const source = rollupSource(definition.collections, collection, field);
  const linkedCollection = linkedBy(definition.collections, collection, field);
  const aggregate = field.aggregate ?? 'count';
  return (
    <>
      <SelectField
        label="Linked records from"
        value={choices.some((c) => c.value === chosen) ? chosen : ''}
        disabled={readOnly}
        hint={
          choices.length === 0
            ? 'Add a field that links to records first (here, or in a collection linking here).'
            : undefined
        }
        onChange={(e) => {
          const choice = choices.find((c) => c.value === e.target.value);
          if (choice)
            set({
              through: choice.field,
              throughCollection: choice.holder === collection.id ? null : choice.holder,
              aggregateFieldId: null,
            });
        }}
      >
        <option value="">Choose a relation</option>
        {choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </SelectField>
      <SelectField
        label="Work out"
        value={aggregate}
        disabled={readOnly}
        onChange={(e) => set({ aggregate: e.target.value as RollupAggregate })}
      >
        {ROLLUP_AGGREGATES.map((a) => (
          <option key={a} value={a}>
            {AGGREGATE_LABELS[a]}
          </option>
        ))}
      </SelectField>
      {aggregate === 'count' || !linkedCollection ? null : (
        <SelectField
          label={`Of the field (in ${linkedCollection.name})`}
          value={field.aggregateFieldId ?? ''}
          disabled={readOnly}
          onChange={(e) => set({ aggregateFieldId: e.target.value || null })}
        >
          <option value="">Choose a field</option>
          {linkedCollection.fields.map((f) => (
            <option key={f.id} value={f.id}>
              {f.name}
            </option>
          ))}
        </SelectField>
      )}
      {'problem' in source && choices.length > 0 ? (
        <p className="field__error" role="status">
          {source.problem}
        </p>
      ) : null}
    </>
  );
}

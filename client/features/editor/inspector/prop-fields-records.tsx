import { FILTER_OPS, type FilterOp, LIMITS } from '@pipit/app-definition';
import { useId } from 'react';
import { SelectField } from '../../../ui/field';
import { DraftText } from '../common/draft-fields';
import { useEditor } from '../common/editor-context';
import { optionLabel } from '../common/labels';
import type { FieldGroup } from './field-groups';

/** These compare with nothing: no value to enter. */
const VALUELESS: ReadonlySet<FilterOp> = new Set(['isTrue', 'isFalse', 'isEmpty', 'isNotEmpty']);

interface Filter {
  fieldId: string;
  op: FilterOp;
  value: string;
}
interface Sort {
  fieldId: string;
  direction: 'asc' | 'desc';
}

/** The fields of `groups` as options: flat for one group, else in an optgroup each. */
export function FieldOptions({ groups }: { groups: FieldGroup[] }) {
  if (groups.length === 1) {
    return groups[0]!.fields.map((f) => (
      <option key={f.id} value={f.id}>
        {f.name}
      </option>
    ));
  }
  return groups.map((group) => (
    <optgroup key={group.id} label={group.label}>
      {group.fields.map((f) => (
        <option key={f.id} value={f.id}>
          {f.name}
        </option>
      ))}
    </optgroup>
  ));
}

/** A multiple choice of fields (a detail's or form's fields), kept in the collection's order. */
export function FieldChecklist({
  label,
  hint,
  groups,
  value,
  onChange,
}: {
  label: string;
  /** What leaving every box empty means (a table's columns), shown under the label. */
  hint?: string | undefined;
  groups: FieldGroup[];
  value: string[];
  onChange(ids: string[]): void;
}) {
  const { readOnly } = useEditor();
  const all = groups.flatMap((g) => g.fields);
  const chosen = new Set(value);
  const toggle = (id: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(id);
    else next.delete(id);
    onChange(all.filter((f) => next.has(f.id)).map((f) => f.id));
  };
  return (
    <fieldset className="prop-group">
      <legend className="field__label">{label}</legend>
      {all.length === 0 ? (
        <p className="field__hint">Add fields to a collection in the Collections tab first.</p>
      ) : hint ? (
        <p className="field__hint">{hint}</p>
      ) : null}
      {groups.map((group) =>
        group.fields.length === 0 ? null : (
          <div key={group.id} className="prop-group__block">
            {groups.length > 1 ? <p className="prop-group__caption">{group.label}</p> : null}
            {group.fields.map((field) => (
              <label key={field.id} className="checkbox checkbox--compact">
                <input
                  type="checkbox"
                  checked={chosen.has(field.id)}
                  disabled={readOnly}
                  onChange={(e) => toggle(field.id, e.target.checked)}
                />
                <span>
                  {field.name}
                  {groups.length > 1 ? (
                    <span className="visually-hidden"> ({group.label})</span>
                  ) : null}
                </span>
              </label>
            ))}
          </div>
        ),
      )}
    </fieldset>
  );
}

function asFilter(value: unknown): Filter | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Partial<Filter>;
  return typeof v.fieldId === 'string' && FILTER_OPS.includes(v.op as FilterOp)
    ? {
        fieldId: v.fieldId,
        op: v.op as FilterOp,
        value: typeof v.value === 'string' ? v.value : '',
      }
    : null;
}

/** A list's filter: a field, a comparison and (for most comparisons) a value. */
export function FilterEditor({
  groups,
  value,
  onChange,
}: {
  groups: FieldGroup[];
  value: unknown;
  onChange(filter: Filter | null): void;
}) {
  const { readOnly } = useEditor();
  const filter = asFilter(value);
  const noFields = groups.every((g) => g.fields.length === 0);
  return (
    <fieldset className="prop-group">
      <legend className="field__label">Filter</legend>
      <SelectField
        label="Show only items whose"
        value={filter?.fieldId ?? ''}
        disabled={readOnly || noFields}
        hint={noFields ? 'Choose a collection with fields first.' : undefined}
        onChange={(e) =>
          onChange(
            e.target.value
              ? { fieldId: e.target.value, op: filter?.op ?? 'equals', value: filter?.value ?? '' }
              : null,
          )
        }
      >
        <option value="">Show every item</option>
        <FieldOptions groups={groups} />
      </SelectField>
      {filter ? (
        <>
          <SelectField
            label="Comparison"
            value={filter.op}
            disabled={readOnly}
            onChange={(e) => onChange({ ...filter, op: e.target.value as FilterOp })}
          >
            {FILTER_OPS.map((op) => (
              <option key={op} value={op}>
                {optionLabel('op', op)}
              </option>
            ))}
          </SelectField>
          {VALUELESS.has(filter.op) ? null : (
            <DraftText
              label="Value"
              value={filter.value}
              disabled={readOnly}
              validate={(v) =>
                v.length > LIMITS.filterValueLength
                  ? `Keep it to ${LIMITS.filterValueLength} characters.`
                  : null
              }
              onCommit={(v) => onChange({ ...filter, value: v })}
            />
          )}
        </>
      ) : null}
    </fieldset>
  );
}

/** A list's order: a field and a direction. */
export function SortEditor({
  groups,
  value,
  onChange,
}: {
  groups: FieldGroup[];
  value: unknown;
  onChange(sort: Sort | null): void;
}) {
  const { readOnly } = useEditor();
  const sort =
    value && typeof value === 'object' && typeof (value as Sort).fieldId === 'string'
      ? ({
          fieldId: (value as Sort).fieldId,
          direction: (value as Sort).direction === 'desc' ? 'desc' : 'asc',
        } as Sort)
      : null;
  const noFields = groups.every((g) => g.fields.length === 0);
  return (
    <fieldset className="prop-group">
      <legend className="field__label">Sort</legend>
      <SelectField
        label="Sort by"
        value={sort?.fieldId ?? ''}
        disabled={readOnly || noFields}
        onChange={(e) =>
          onChange(
            e.target.value
              ? { fieldId: e.target.value, direction: sort?.direction ?? 'asc' }
              : null,
          )
        }
      >
        <option value="">Order they were added</option>
        <FieldOptions groups={groups} />
      </SelectField>
      {sort ? (
        <SelectField
          label="Direction"
          value={sort.direction}
          disabled={readOnly}
          onChange={(e) =>
            onChange({ ...sort, direction: e.target.value === 'desc' ? 'desc' : 'asc' })
          }
        >
          <option value="asc">{optionLabel('direction', 'asc')}</option>
          <option value="desc">{optionLabel('direction', 'desc')}</option>
        </SelectField>
      ) : null}
    </fieldset>
  );
}

/** A step's values by field: each a template (`{{input.name}}`); an empty one is left out. */
export function TemplateValuesEditor({
  label,
  hint,
  groups,
  needsCollection,
  value,
  onChange,
}: {
  label: string;
  hint: string;
  groups: FieldGroup[];
  needsCollection: boolean;
  value: Record<string, string>;
  onChange(values: Record<string, string>): void;
}) {
  const { readOnly } = useEditor();
  const hintId = useId();
  const set = (fieldId: string, text: string) => {
    const next = { ...value };
    if (text === '') delete next[fieldId];
    else next[fieldId] = text;
    onChange(next);
  };
  const empty = groups.every((g) => g.fields.length === 0);
  return (
    <fieldset className="prop-group" aria-describedby={hintId}>
      <legend className="field__label">{label}</legend>
      <p className="field__hint" id={hintId}>
        {empty
          ? needsCollection
            ? 'Choose a collection with fields first.'
            : 'Add fields to a collection in the Collections tab first.'
          : hint}
      </p>
      {groups.map((group) =>
        group.fields.map((field) => (
          <DraftText
            key={field.id}
            label={groups.length > 1 ? `${field.name} (${group.label})` : field.name}
            value={value[field.id] ?? ''}
            disabled={readOnly}
            validate={(v) =>
              v.length > LIMITS.templateLength
                ? `Keep it to ${LIMITS.templateLength} characters.`
                : null
            }
            onCommit={(v) => set(field.id, v)}
          />
        )),
      )}
    </fieldset>
  );
}

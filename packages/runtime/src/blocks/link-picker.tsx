import { DEFAULT_CURRENCY, type Field, type ReadDefinition } from '@pipit/app-definition';
import { useId, useState } from 'react';
import type { FormInputValue } from '../form-state';
import { inputChecked, inputValue } from '../host';
import { recordName } from '../relations';
import type { RuntimeRecord } from '../runtime-data';

/** Where a form's relations find the records they can link: the app, and its records shown here. */
export interface LinkSource {
  definition: ReadDefinition;
  recordsOf(collectionId: string): readonly Pick<RuntimeRecord, 'id' | 'values'>[];
}

/** A record a relation's form can link: its id and its name. */
export interface LinkChoice {
  id: string;
  name: string;
}

/** The most records listed at once; the rest are found by searching. */
const SHOWN = 30;
/** From this many records on, the picker has a search box. */
const SEARCH_FROM = 8;

function folded(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** A relation's control, its choices the linked collection's records shown here, by name. */
export function RelationControl({
  source,
  ...control
}: {
  field: Field;
  source: LinkSource;
  value: FormInputValue;
  live: boolean;
  onChange?: ((value: FormInputValue) => void) | undefined;
}) {
  const { definition, recordsOf } = source;
  const target = definition.collections.find((c) => c.id === control.field.target);
  const currency = definition.meta.currency ?? DEFAULT_CURRENCY;
  const choices = target
    ? recordsOf(target.id).map((r) => ({ id: r.id, name: recordName(target, r, currency) }))
    : [];
  return <LinkPicker {...control} targetName={target?.name ?? 'records'} choices={choices} />;
}

/**
 * A relation's control in a form: the linked collection's records by name, ticked (several) or
 * chosen (one), with a search box once there are more than a few. The records already chosen stay
 * listed first whatever is searched, so a search never hides what will be saved.
 */
export function LinkPicker({
  field,
  targetName,
  choices,
  value,
  live,
  onChange,
}: {
  field: Field;
  /** The linked collection's name ("Events"). */
  targetName: string;
  choices: readonly LinkChoice[];
  value: FormInputValue;
  live: boolean;
  onChange?: ((value: FormInputValue) => void) | undefined;
}) {
  const name = useId();
  const [search, setSearch] = useState('');
  const chosen = Array.isArray(value) ? value : [];
  if (choices.length === 0) return <p className="rt-muted">{`No ${targetName} to link yet.`}</p>;
  const wanted = folded(search.trim());
  const picked = choices.filter((c) => chosen.includes(c.id));
  const others = choices.filter(
    (c) => !chosen.includes(c.id) && (!wanted || folded(c.name).includes(wanted)),
  );
  const listed = [...picked, ...others.slice(0, Math.max(0, SHOWN - picked.length))];
  const hidden = others.length - (listed.length - picked.length);
  const many = field.many ?? false;
  const set = (id: string, on: boolean) =>
    onChange?.(many ? (on ? [...chosen, id] : chosen.filter((c) => c !== id)) : on ? [id] : []);
  return (
    <>
      {choices.length >= SEARCH_FROM ? (
        <input
          type="search"
          className="rt-input rt-link-search"
          aria-label={`Search ${targetName}`}
          placeholder={`Search ${targetName}…`}
          value={search}
          disabled={!live}
          onChange={(e) => setSearch(inputValue(e))}
        />
      ) : null}
      <div className="rt-choices rt-link-choices">
        {!many && !field.required ? (
          <label className="rt-check">
            <input
              type="radio"
              className="rt-checkbox"
              name={name}
              disabled={!live}
              checked={chosen.length === 0}
              onChange={() => onChange?.([])}
            />
            <span className="rt-muted">None</span>
          </label>
        ) : null}
        {listed.map((choice) => (
          <label key={choice.id} className="rt-check">
            <input
              type={many ? 'checkbox' : 'radio'}
              className="rt-checkbox"
              name={many ? undefined : name}
              disabled={!live}
              checked={chosen.includes(choice.id)}
              onChange={(e) => set(choice.id, many ? inputChecked(e) : true)}
            />
            <span dir="auto">{choice.name}</span>
          </label>
        ))}
        {others.length === 0 && wanted ? (
          <p className="rt-muted">{`No ${targetName} match “${search.trim()}”.`}</p>
        ) : null}
        {hidden > 0 ? <p className="rt-muted">{`${hidden} more: search to find them.`}</p> : null}
      </div>
    </>
  );
}

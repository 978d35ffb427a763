import {
  type Collection,
  COLLECTION_SHARING,
  RECORD_RULES,
  setCollectionSharing,
} from '@pipit/app-definition';
import { useId } from 'react';
import { useEditor } from '../common/editor-context';
import { RECORD_RULE_CHOICES, SHARING_CHOICES, SPACES_HELP } from './sharing-choices';

interface Choice<T extends string> {
  value: T;
  label: string;
  hint: string;
}

/** Radio buttons, each with its hint; arrow keys move between them. */
function ChoiceGroup<T extends string>({
  legend,
  help,
  choices,
  value,
  disabled,
  onChange,
}: {
  legend: string;
  help?: string;
  choices: Array<Choice<T>>;
  value: T;
  disabled: boolean;
  onChange(value: T): void;
}) {
  const id = useId();
  return (
    <fieldset
      className="choice-group"
      disabled={disabled}
      aria-describedby={help ? `${id}-help` : undefined}
    >
      <legend className="field__label">{legend}</legend>
      {help ? (
        <p className="field__hint" id={`${id}-help`}>
          {help}
        </p>
      ) : null}
      {choices.map((choice) => (
        <label key={choice.value} className="choice-group__option">
          <input
            type="radio"
            name={id}
            value={choice.value}
            checked={choice.value === value}
            aria-describedby={`${id}-${choice.value}`}
            onChange={() => onChange(choice.value)}
          />
          <span>
            <strong>{choice.label}</strong>
            <span className="field__hint" id={`${id}-${choice.value}`}>
              {choice.hint}
            </span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}

/**
 * Where the records visitors add to a collection live: each visitor's own, or a space they share
 * with people they invite; when shared, who may change a record.
 */
export function CollectionSharing({ collection }: { collection: Collection }) {
  const { handle, readOnly } = useEditor();
  const shared = collection.sharing === 'space';
  return (
    <div className="prop-group collection-sharing">
      <ChoiceGroup
        legend="Who sees the records visitors add"
        help={SPACES_HELP}
        choices={COLLECTION_SHARING.map((value) => ({ value, ...SHARING_CHOICES[value] }))}
        value={collection.sharing}
        disabled={readOnly}
        onChange={(sharing) => handle.edit(setCollectionSharing, collection.id, { sharing })}
      />
      {shared ? (
        <ChoiceGroup
          legend="Who can change a record"
          choices={RECORD_RULES.map((value) => ({ value, ...RECORD_RULE_CHOICES[value] }))}
          value={collection.recordRule}
          disabled={readOnly}
          onChange={(recordRule) =>
            handle.edit(setCollectionSharing, collection.id, { recordRule })
          }
        />
      ) : null}
    </div>
  );
}

import {
  isFieldListKey,
  type ListView,
  MISSING_SCREEN_ID,
  referenceTable,
  type ViewFieldKey,
} from '@pipit/app-definition';
import { useId } from 'react';
import { SelectField } from '../../../ui/field';
import { DraftNumber, DraftText } from '../common/draft-fields';
import { type FieldGroup, fieldGroups } from './field-groups';
import { useEditor } from '../common/editor-context';
import { ImageUpload } from './image-upload';
import { optionLabel, propLabel } from '../common/labels';
import { describeProp, problemOf, type PropKind, type PropSchema } from './prop-schema';
import {
  FieldChecklist,
  FieldOptions,
  FilterEditor,
  SortEditor,
  TemplateValuesEditor,
} from './prop-fields-records';
import { urlProblem } from '../common/validation';
import {
  fieldsForProp,
  propShown,
  VIEW_FIELD_MISSING,
  VIEW_PROP_HINTS,
  viewPatch,
} from './list-view-props';

const TEMPLATE_HINT = 'You can use {{record.field}}, {{input.field}} and {{user.name}}.';
const TEMPLATE_KEYS = new Set(['message', 'value']);

interface PropFieldsProps {
  /** The zod shape of the component's or step's properties. */
  shape: Record<string, PropSchema>;
  values: Record<string, unknown>;
  onPatch(patch: Record<string, unknown>): void;
  /** For a step's `values`: whose fields (createRecord names its collection). */
  templateFieldsFromCollection?: boolean;
}

/** An input for every property of a schema, each edit validated and written on its own. */
export function PropFields({
  shape,
  values,
  onPatch,
  templateFieldsFromCollection,
}: PropFieldsProps) {
  const entries = Object.entries(shape);
  if (entries.length === 0) return <p className="editor-muted">There is nothing to set here.</p>;
  return (
    <div className="prop-fields">
      {entries
        .filter(([key]) => propShown(key, values))
        .map(([key, schema]) => (
          <PropField
            key={key}
            propKey={key}
            schema={schema}
            kind={describeProp(key, schema)}
            values={values}
            shape={shape}
            onPatch={onPatch}
            templateFieldsFromCollection={templateFieldsFromCollection ?? false}
          />
        ))}
    </div>
  );
}

interface PropFieldProps {
  propKey: string;
  schema: PropSchema;
  kind: PropKind;
  values: Record<string, unknown>;
  shape: Record<string, PropSchema>;
  onPatch(patch: Record<string, unknown>): void;
  templateFieldsFromCollection: boolean;
}

function PropField({
  propKey,
  schema,
  kind,
  values,
  shape,
  onPatch,
  templateFieldsFromCollection,
}: PropFieldProps) {
  const { definition, readOnly } = useEditor();
  const value = values[propKey];
  const label = propLabel(propKey);
  const hint = TEMPLATE_KEYS.has(propKey) ? TEMPLATE_HINT : undefined;
  const groups = fieldGroups(definition.collections, values.collectionId);
  switch (kind.kind) {
    case 'text':
      return (
        <DraftText
          label={label}
          hint={hint}
          value={typeof value === 'string' ? value : ''}
          multiline={kind.multiline}
          disabled={readOnly}
          validate={(v) => problemOf(schema, v, kind)}
          onCommit={(v) => onPatch({ [propKey]: v })}
        />
      );
    case 'url': {
      const field = (
        <DraftText
          label={label}
          hint="An address starting with https://, or a path on this site."
          value={typeof value === 'string' ? value : ''}
          disabled={readOnly}
          placeholder="https://"
          validate={urlProblem}
          onCommit={(v) => onPatch({ [propKey]: v.trim() })}
        />
      );
      // An image's source: an address, or an image uploaded to this app.
      if (propKey !== 'src' || readOnly) return field;
      return (
        <div className="stack">
          {field}
          <ImageUpload label="Upload an image" onUploaded={(url) => onPatch({ src: url })} />
        </div>
      );
    }
    case 'number':
      return (
        <DraftNumber
          label={label}
          value={typeof value === 'number' ? value : null}
          disabled={readOnly}
          min={kind.min ?? undefined}
          max={kind.max ?? undefined}
          step={kind.integer ? 1 : 'any'}
          validate={(v) => problemOf(schema, v, kind)}
          onCommit={(v) => onPatch({ [propKey]: v })}
        />
      );
    case 'boolean':
      return (
        <BooleanField
          label={label}
          hint={VIEW_PROP_HINTS[propKey]}
          checked={value === true}
          disabled={readOnly}
          onChange={(checked) => onPatch({ [propKey]: checked })}
        />
      );
    case 'choice':
      return (
        <SelectField
          label={label}
          value={String(value ?? '')}
          disabled={readOnly}
          onChange={(e) => {
            const option = kind.options.find((o) => String(o) === e.target.value);
            if (option === undefined) return;
            // A view with the field it needs, when the collection has one.
            if (propKey === 'view') {
              const fields = groups.length === 1 ? groups[0]!.fields : [];
              onPatch(viewPatch(option as ListView, values, fields));
            } else onPatch({ [propKey]: option });
          }}
        >
          {kind.options.map((option) => (
            <option key={String(option)} value={String(option)}>
              {optionLabel(propKey, option)}
            </option>
          ))}
        </SelectField>
      );
    case 'reference':
      return (
        <ReferenceSelect
          propKey={propKey}
          kind={kind}
          value={typeof value === 'string' ? value : null}
          groups={fieldsForProp(propKey, groups)}
          onChange={(id) => {
            const patch: Record<string, unknown> = { [propKey]: id };
            // Another collection: the chosen fields belonged to the old one.
            if (propKey === 'collectionId' && id !== value) {
              for (const key of Object.keys(shape)) {
                if (referenceTable(key) === 'fields') patch[key] = null;
                if (isFieldListKey(key)) patch[key] = [];
                if (key === 'filter' || key === 'sort') patch[key] = null;
                if (key === 'values') patch[key] = {};
              }
            }
            onPatch(patch);
          }}
        />
      );
    case 'field-list':
      return (
        <FieldChecklist
          label={label}
          hint={VIEW_PROP_HINTS[propKey]}
          groups={groups}
          value={Array.isArray(value) ? (value as string[]) : []}
          onChange={(ids) => onPatch({ [propKey]: ids })}
        />
      );
    case 'filter':
      return (
        <FilterEditor groups={groups} value={value} onChange={(f) => onPatch({ filter: f })} />
      );
    case 'sort':
      return <SortEditor groups={groups} value={value} onChange={(s) => onPatch({ sort: s })} />;
    case 'template-values':
      return (
        <TemplateValuesEditor
          label={label}
          hint={TEMPLATE_HINT}
          groups={
            templateFieldsFromCollection && typeof values.collectionId !== 'string' ? [] : groups
          }
          needsCollection={templateFieldsFromCollection}
          value={value && typeof value === 'object' ? (value as Record<string, string>) : {}}
          onChange={(v) => onPatch({ [propKey]: v })}
        />
      );
    case 'unsupported':
      return null;
  }
}

function ReferenceSelect({
  propKey,
  kind,
  value,
  groups,
  onChange,
}: {
  propKey: string;
  kind: Extract<PropKind, { kind: 'reference' }>;
  value: string | null;
  groups: FieldGroup[];
  onChange(id: string | null): void;
}) {
  const { definition, readOnly } = useEditor();
  const label = propLabel(propKey);
  const flat: Array<{ id: string; name: string }> =
    kind.table === 'screens'
      ? definition.screens
          .filter((s) => s.id !== MISSING_SCREEN_ID)
          .map((s) => ({ id: s.id, name: `${s.icon} ${s.title}` }))
      : kind.table === 'collections'
        ? definition.collections
        : kind.table === 'actions'
          ? definition.actions
          : kind.table === 'aiActions'
            ? definition.aiActions
            : [];
  const isEmpty =
    kind.table === 'fields' ? groups.every((g) => g.fields.length === 0) : flat.length === 0;
  const emptyHint: Record<typeof kind.table, string> = {
    screens: 'Add a screen first.',
    collections: 'Add a collection in the Collections tab first.',
    fields: 'Add fields to a collection in the Collections tab first.',
    actions: 'Add an action in the Actions tab first.',
    aiActions: 'Add an AI action in the Actions tab first.',
  };
  const missing = VIEW_FIELD_MISSING[propKey as ViewFieldKey] ?? emptyHint[kind.table];
  return (
    <SelectField
      label={label}
      value={value ?? ''}
      disabled={readOnly}
      hint={isEmpty ? missing : VIEW_PROP_HINTS[propKey]}
      onChange={(e) => onChange(e.target.value === '' ? null : e.target.value)}
    >
      {kind.nullable || value === null ? <option value="">None</option> : null}
      {kind.table === 'fields' ? (
        <FieldOptions groups={groups} />
      ) : (
        flat.map((item) => (
          <option key={item.id} value={item.id}>
            {item.name}
          </option>
        ))
      )}
    </SelectField>
  );
}

/** A yes/no property: a checkbox, with what it does under it when that needs saying. */
function BooleanField({
  label,
  hint,
  checked,
  disabled,
  onChange,
}: {
  label: string;
  hint: string | undefined;
  checked: boolean;
  disabled: boolean;
  onChange(checked: boolean): void;
}) {
  const hintId = useId();
  return (
    <div className="stack">
      <label className="checkbox">
        <input
          type="checkbox"
          checked={checked}
          disabled={disabled}
          aria-describedby={hint ? hintId : undefined}
          onChange={(e) => onChange(e.target.checked)}
        />
        <span>{label}</span>
      </label>
      {hint ? (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}

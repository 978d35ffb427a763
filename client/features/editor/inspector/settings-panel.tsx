import {
  appMetaSchema,
  DEFAULT_APP_ICON,
  DEFAULT_CURRENCY,
  LIMITS,
  setMeta,
} from '@pipit/app-definition';
import { type FormEvent, useState } from 'react';
import { AppIcon } from '../../../ui/app-icon';
import { Button } from '../../../ui/button';
import { SelectField, TextField } from '../../../ui/field';
import { DraftText } from '../common/draft-fields';
import { ImageUpload } from './image-upload';
import { useEditor } from '../common/editor-context';
import { firstProblem } from './prop-schema';

const EMOJI_MAX = 16;

/** Offered when the browser can't list the currencies it knows. */
const COMMON_CURRENCIES = [
  'AUD',
  'BRL',
  'CAD',
  'CHF',
  'CNY',
  'EUR',
  'GBP',
  'INR',
  'JPY',
  'MXN',
  'USD',
];

/** Every currency this browser can format, with its name ("EUR — Euro"). */
function currencyChoices(current: string): Array<{ code: string; name: string }> {
  const codes: string[] =
    typeof Intl.supportedValuesOf === 'function'
      ? Intl.supportedValuesOf('currency')
      : COMMON_CURRENCIES;
  const names = new Intl.DisplayNames(undefined, { type: 'currency' });
  return [...new Set([...codes, current])].sort().map((code) => ({
    code,
    name: `${code} — ${names.of(code) ?? code}`,
  }));
}

/** The currency money fields use: one per app, so every amount in it reads the same. */
function CurrencyPicker({
  value,
  disabled,
  onChange,
}: {
  value: string;
  disabled: boolean;
  onChange(code: string): void;
}) {
  const [choices] = useState(() => currencyChoices(value));
  return (
    <SelectField
      label="Currency"
      hint="Money fields show their amounts in it."
      value={value}
      disabled={disabled}
      onChange={(e) => onChange(e.target.value)}
    >
      {choices.map(({ code, name }) => (
        <option key={code} value={code}>
          {name}
        </option>
      ))}
    </SelectField>
  );
}

/** The app's listing: title, description, icon and tags. */
export function SettingsPanel() {
  const { definition, handle, readOnly } = useEditor();
  const meta = definition.meta;
  const icon = meta.icon;
  const emoji = icon.kind === 'emoji' ? icon.emoji : '';
  const background = icon.kind === 'emoji' ? icon.background : DEFAULT_APP_ICON.background;
  const save = (patch: Parameters<typeof setMeta>[1]) => handle.edit(setMeta, patch);
  return (
    <div className="properties-panel">
      <h2 className="editor-section__title">App settings</h2>
      <DraftText
        label="Title"
        hint={`1–${LIMITS.titleLength} characters.`}
        value={meta.title}
        disabled={readOnly}
        validate={(v) => firstProblem(appMetaSchema.shape.title.safeParse(v))}
        onCommit={(title) => save({ title })}
      />
      <DraftText
        label="Description"
        hint={`What the app is for, in up to ${LIMITS.descriptionLength} characters.`}
        multiline
        rows={4}
        value={meta.description}
        disabled={readOnly}
        validate={(v) => firstProblem(appMetaSchema.shape.description.safeParse(v))}
        onCommit={(description) => save({ description })}
      />
      <CurrencyPicker
        value={meta.currency ?? DEFAULT_CURRENCY}
        disabled={readOnly}
        onChange={(currency) => save({ currency })}
      />
      <fieldset className="prop-group">
        <legend className="field__label">Icon</legend>
        {icon.kind === 'image' ? (
          <div className="icon-editor">
            <img className="icon-editor__preview" src={icon.url} alt="The app’s icon" />
            <p className="field__hint">
              This app uses an uploaded image. Choosing an emoji below replaces it.
            </p>
          </div>
        ) : null}
        {readOnly ? null : (
          <ImageUpload
            label="Upload an image as the icon"
            onUploaded={(url) => save({ icon: { kind: 'image', url } })}
          />
        )}
        <div className="icon-editor">
          <AppIcon
            icon={{ kind: 'emoji', emoji, background }}
            size={48}
            label={`Icon preview: ${emoji || 'no emoji yet'}`}
          />
          <DraftText
            label="Emoji"
            value={emoji}
            disabled={readOnly}
            validate={(v) =>
              v.trim() === ''
                ? 'Choose an emoji.'
                : v.length > EMOJI_MAX
                  ? 'Use one emoji (or a few characters).'
                  : null
            }
            onCommit={(v) => save({ icon: { kind: 'emoji', emoji: v.trim(), background } })}
          />
          <div className="colour-input">
            <input
              id="app-icon-background"
              type="color"
              value={background}
              disabled={readOnly}
              onChange={(e) => {
                if (/^#[0-9a-f]{6}$/i.test(e.target.value)) {
                  save({
                    icon: {
                      kind: 'emoji',
                      emoji: emoji || DEFAULT_APP_ICON.emoji,
                      background: e.target.value,
                    },
                  });
                }
              }}
            />
            <label htmlFor="app-icon-background">Background</label>
          </div>
        </div>
      </fieldset>
      <TagsEditor />
    </div>
  );
}

function TagsEditor() {
  const { definition, handle, readOnly } = useEditor();
  const tags = definition.meta.tags;
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const atLimit = tags.length >= LIMITS.tags;
  const add = (event: FormEvent) => {
    event.preventDefault();
    const tag = draft.trim().toLowerCase();
    if (tag === '') return setProblem('Type a tag first.');
    if (tag.length > LIMITS.tagLength) {
      return setProblem(`Keep each tag to ${LIMITS.tagLength} characters.`);
    }
    if (tags.includes(tag)) return setProblem('The app already has that tag.');
    if (atLimit) return setProblem(`Use at most ${LIMITS.tags} tags.`);
    handle.edit(setMeta, { tags: [...tags, tag] });
    setDraft('');
    setProblem(null);
  };
  return (
    <section className="properties-section" aria-labelledby="app-tags-title">
      <h3 className="properties-section__title" id="app-tags-title">
        Tags{' '}
        <span className="editor-muted">
          ({tags.length} of {LIMITS.tags})
        </span>
      </h3>
      {tags.length === 0 ? (
        <p className="editor-muted">Tags help people find the app in Explore.</p>
      ) : null}
      <ul className="chip-list" aria-label="Tags">
        {tags.map((tag) => (
          <li key={tag} className="chip chip--static">
            {tag}
            {readOnly ? null : (
              <button
                type="button"
                className="chip__remove"
                aria-label={`Remove the tag ${tag}`}
                onClick={() => handle.edit(setMeta, { tags: tags.filter((t) => t !== tag) })}
              >
                <span aria-hidden="true">×</span>
              </button>
            )}
          </li>
        ))}
      </ul>
      {readOnly ? null : (
        <form className="add-step" onSubmit={add}>
          <TextField
            label="New tag"
            value={draft}
            disabled={atLimit}
            hint={atLimit ? `An app can have at most ${LIMITS.tags} tags.` : undefined}
            error={problem}
            onChange={(e) => {
              setDraft(e.target.value);
              setProblem(null);
            }}
          />
          <Button type="submit" size="small" variant="secondary" disabled={atLimit}>
            Add tag
          </Button>
        </form>
      )}
    </section>
  );
}

import { type Field, fileReferenceProblem, parseFileReference } from '@pipit/app-definition';
import { type ReactNode, useState } from 'react';
import { FileImage, FileLink } from '../file-values';
import type { FormInputValue } from '../form-state';
import type { PickedFile, RuntimeFiles } from '../runtime-data';

/** The first file of a file input's change event, typed as little as the runtime needs. */
function pickedFileOf(event: { currentTarget: unknown }): PickedFile | null {
  const input = event.currentTarget as { files?: ArrayLike<PickedFile> | null; value?: string };
  const file = input.files?.[0] ?? null;
  // The same file picked again after a removal must fire a change again.
  input.value = '';
  return file;
}

/**
 * An image or file field's control: a file input (on a phone, an image field offers the camera:
 * `accept="image/*"` with `capture`), the photo as kept on this device at once, and a way to
 * remove it. What cannot be kept (not a photo, too large) is said here and changes nothing.
 */
export function FileControl({
  field,
  collectionId,
  files,
  value,
  labelId,
  a11y,
  onChange,
  errorText,
}: {
  field: Field;
  collectionId: string;
  files: RuntimeFiles | null;
  value: FormInputValue;
  labelId: string;
  a11y: Record<string, unknown>;
  onChange?: ((value: FormInputValue) => void) | undefined;
  errorText: ReactNode;
}) {
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const image = field.type === 'image';
  const live = onChange !== undefined && files !== null;
  const current = typeof value === 'string' ? parseFileReference(value) : null;
  const noun = image ? 'photo' : 'file';

  const pick = async (event: { currentTarget: unknown }) => {
    const file = pickedFileOf(event);
    if (!file || !files || !onChange) return;
    // Checked before anything is kept: its type and size as picked (the bytes are read next).
    const early = fileReferenceProblem(image ? 'image' : 'file', field.name, {
      hash: '',
      size: file.size,
      type: file.type,
      name: file.name.slice(0, 200),
    });
    if (early) {
      setProblem(early);
      return;
    }
    setBusy(true);
    try {
      onChange(await files.add(collectionId, image ? 'image' : 'file', file));
      setProblem(null);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : `That ${noun} couldn’t be kept.`);
    } finally {
      setBusy(false);
    }
  };

  const problemText = problem ? (
    <p className="rt-field-error" role="alert">
      <span aria-hidden="true">⚠️ </span>
      {problem}
    </p>
  ) : null;

  return (
    <div className="rt-field-group" role="group" aria-labelledby={labelId}>
      <span className="rt-field-label" id={labelId}>
        {field.name}
        {field.required && <span className="rt-muted"> (required)</span>}
      </span>
      {current ? (
        <div className="rt-file-current">
          {image ? (
            <FileImage
              files={files}
              collectionId={collectionId}
              value={value as string}
              alt={`${field.name}: ${current.name || 'photo'}`}
              className="rt-file-preview"
            />
          ) : (
            <FileLink files={files} collectionId={collectionId} value={value as string} />
          )}
          {live && !busy ? (
            <button type="button" className="rt-link-button" onClick={() => onChange?.('')}>
              Remove {noun}
            </button>
          ) : null}
        </div>
      ) : null}
      {live ? (
        <div className="rt-file-picks">
          {image ? (
            <PickButton
              text={busy ? 'Keeping the photo…' : 'Take a photo'}
              label={`Take a photo for ${field.name}`}
              camera
              disabled={busy}
              a11y={a11y}
              onPick={pick}
            />
          ) : null}
          <PickButton
            text={current ? `Replace ${noun}` : image ? 'Choose a photo' : 'Choose a file'}
            label={`${current ? 'Replace' : 'Choose'} ${noun} for ${field.name}`}
            accept={image ? 'image/*' : undefined}
            disabled={busy}
            a11y={a11y}
            onPick={pick}
          />
        </div>
      ) : (
        <p className="rt-muted">
          {files
            ? `Add a ${noun} in the running app.`
            : `${image ? 'Photos' : 'Files'} are added in the installed app.`}
        </p>
      )}
      {problemText}
      {errorText}
    </div>
  );
}

/**
 * A file input inside its label, looking like a button: the label takes the click, the input
 * keeps the keyboard focus (visually hidden, so the label shows its focus ring), and a screen
 * reader reads the field's name with it.
 */
function PickButton({
  text,
  label,
  camera = false,
  accept,
  disabled,
  a11y,
  onPick,
}: {
  text: string;
  label: string;
  camera?: boolean;
  accept?: string | undefined;
  disabled: boolean;
  a11y: Record<string, unknown>;
  onPick: (event: { currentTarget: unknown }) => Promise<void>;
}) {
  return (
    <label className="rt-button rt-file-pick" data-disabled={disabled || undefined}>
      <input
        type="file"
        className="rt-visually-hidden"
        {...(camera ? { accept: 'image/*', capture: 'environment' as const } : {})}
        {...(!camera && accept ? { accept } : {})}
        disabled={disabled}
        aria-label={label}
        {...a11y}
        onChange={(event) => void onPick(event)}
      />
      <span aria-hidden="true">{text}</span>
    </label>
  );
}

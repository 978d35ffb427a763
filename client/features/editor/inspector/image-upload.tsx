import { useParams } from '@tanstack/react-router';
import { APP_IMAGE_MAX_BYTES, APP_IMAGE_TYPES, appImageResponseSchema } from '@pipit/protocol';
import { useId, useState } from 'react';
import { useOnlineStatus } from '../../../ui/use-online-status';
import { describeError } from '../../../platform/api/request';
import { uploadFile } from '../../../platform/api/transfer';
import './image-upload.css';

/**
 * "Upload an image" for an image component or the app's icon (docs/product/portable-file.md#images-of-an-app):
 * the image goes to the server (`POST /api/apps/{id}/images`), which keeps it with the app, and its
 * url is what the component or icon then shows. Online only, and it says so; the upload shows how
 * far it got.
 */
export function ImageUpload({
  label,
  disabled,
  onUploaded,
}: {
  label: string;
  disabled?: boolean;
  onUploaded(url: string): void;
}) {
  // A synced app's editor has an id in its path; the demo's app lives on the device only.
  const appId = useParams({ strict: false }).id;
  const online = useOnlineStatus();
  const inputId = useId();
  const [progress, setProgress] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  if (!appId) {
    return <p className="field__hint">Uploading images works in apps saved to your account.</p>;
  }

  async function upload(file: File | undefined, input: HTMLInputElement) {
    if (!file) return;
    setProblem(null);
    if (file.size > APP_IMAGE_MAX_BYTES) {
      setProblem('That image is larger than 5 MB. Choose a smaller one.');
      input.value = '';
      return;
    }
    setProgress(0);
    try {
      const image = await uploadFile(`/api/apps/${appId}/images`, file, appImageResponseSchema, {
        onProgress: setProgress,
      });
      onUploaded(image.url);
    } catch (error) {
      setProblem(describeError(error).message);
    } finally {
      setProgress(null);
      input.value = '';
    }
  }

  const uploading = progress !== null;
  return (
    <div className="image-upload">
      <label className="field__label" htmlFor={inputId}>
        {label}
      </label>
      <input
        id={inputId}
        type="file"
        accept={APP_IMAGE_TYPES.join(',')}
        disabled={disabled || uploading || !online}
        onChange={(event) => void upload(event.target.files?.[0], event.target)}
      />
      {uploading ? (
        <p className="field__hint" role="status">
          <progress max={1} value={progress}>
            {Math.round(progress * 100)}%
          </progress>{' '}
          Uploading… {Math.round(progress * 100)}%
        </p>
      ) : (
        <p className="field__hint">
          {online
            ? 'PNG, JPEG, WebP or GIF, up to 5 MB. It is kept with this app.'
            : 'Uploading an image needs a connection. You can still paste an address.'}
        </p>
      )}
      {problem ? (
        <p className="field__error" role="alert">
          {problem}
        </p>
      ) : null}
    </div>
  );
}

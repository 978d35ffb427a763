import { type Field, parseFileReference } from '@pipit/app-definition';
import { useEffect, useState } from 'react';
import type { RecordValue } from './records';
import type { RuntimeFiles } from './runtime-data';

/**
 * Showing the photos and files records hold (docs/product/records.md#photos-and-files-on-records):
 * the host says where each is (this device's copy, else the server's), found once per value.
 */

/** Where a reference's file is, once the host has said; null while asking or when nowhere. */
export function useFileUrl(
  files: RuntimeFiles | null | undefined,
  collectionId: string,
  value: RecordValue,
  variant: 'thumbnail' | 'original',
): string | null {
  const ref = parseFileReference(value);
  const hash = ref?.hash ?? null;
  const [found, setFound] = useState<{ key: string; url: string | null } | null>(null);
  const key = `${collectionId}:${hash}:${variant}`;
  useEffect(() => {
    if (!files || !hash) return;
    let live = true;
    files.url(collectionId, hash, variant).then(
      (url) => live && setFound({ key, url }),
      () => live && setFound({ key, url: null }),
    );
    return () => {
      live = false;
    };
  }, [files, collectionId, hash, variant, key]);
  return found?.key === key ? found.url : null;
}

/**
 * A record's photo: its thumbnail (lists, galleries, the detail) in a box of fixed shape, or a
 * placeholder while it is nowhere to be seen yet (on another device, not sent yet, or the server
 * answered with no picture).
 */
export function FileImage({
  files,
  collectionId,
  value,
  alt,
  className,
  variant = 'thumbnail',
}: {
  files: RuntimeFiles | null | undefined;
  collectionId: string;
  value: RecordValue;
  alt: string;
  className: string;
  variant?: 'thumbnail' | 'original';
}) {
  const url = useFileUrl(files, collectionId, value, variant);
  // The server may not have it yet (the device that took it has not sent it): a placeholder, not
  // a broken image.
  const [failed, setFailed] = useState<string | null>(null);
  if (!url || failed === url) {
    return (
      <span className={`${className} rt-gallery-none`} role="img" aria-label={alt}>
        <span aria-hidden="true">🖼️</span>
      </span>
    );
  }
  return (
    <img
      className={className}
      src={url}
      alt={alt}
      loading="lazy"
      decoding="async"
      onError={() => setFailed(url)}
    />
  );
}

/** A record's file: a link that downloads it, named as it was picked. */
export function FileLink({
  files,
  collectionId,
  value,
}: {
  files: RuntimeFiles | null | undefined;
  collectionId: string;
  value: RecordValue;
}) {
  const ref = parseFileReference(value);
  const url = useFileUrl(files, collectionId, value, 'original');
  if (!ref) return null;
  const label = `${ref.name || 'File'} (${describeSize(ref.size)})`;
  if (!url) return <span dir="auto">{label}</span>;
  return (
    <a className="rt-link" href={url} download={ref.name || true} dir="auto">
      {label}
    </a>
  );
}

export function describeSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Whether a field shows a kept photo or file rather than text. */
export function isFileField(field: Pick<Field, 'type'> | null): boolean {
  return field?.type === 'image' || field?.type === 'file';
}

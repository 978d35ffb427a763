import {
  formatFileReference,
  isSharedCollection,
  type ReadDefinition,
} from '@pipit/app-definition';
import type { RuntimeFiles } from '@pipit/runtime';
import { useEffect, useMemo, useRef } from 'react';
import type { UploadSent } from '../../sync/visitor-data/record-files';
import { loadRecordFiles } from '../../sync/visitor-data/record-files-loader';

/** The thumbnail a device makes of a photo it keeps: what its lists and galleries show. */
const THUMBNAIL_SIDE_PX = 320;

const NOT_AN_IMAGE =
  'That file isn’t an image we can read. Choose a photo (PNG, JPEG, WebP or GIF).';
const DEVICE_FULL =
  'This device has no room left to keep that. Free some space on it, then try again.';

/**
 * Decodes a picked photo (what cannot be decoded is refused here, before anything is kept) and
 * makes its thumbnail; null for the thumbnail when this browser cannot make one (the photo itself
 * then shows in lists).
 */
async function readPhoto(blob: Blob): Promise<{ thumbnail: Blob | null }> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(blob);
  } catch {
    throw new Error(NOT_AN_IMAGE);
  }
  try {
    const scale = Math.min(1, THUMBNAIL_SIDE_PX / Math.max(bitmap.width, bitmap.height));
    const width = Math.max(1, Math.round(bitmap.width * scale));
    const height = Math.max(1, Math.round(bitmap.height * scale));
    if (typeof OffscreenCanvas === 'undefined') return { thumbnail: null };
    const canvas = new OffscreenCanvas(width, height);
    canvas.getContext('2d')?.drawImage(bitmap, 0, 0, width, height);
    return { thumbnail: await canvas.convertToBlob({ type: 'image/webp', quality: 0.7 }) };
  } catch {
    return { thumbnail: null };
  } finally {
    bitmap.close();
  }
}

/** Sends one kept file (`PUT …/files/{hash}`) and says what came of it. */
async function sendFile(path: string, kind: 'image' | 'file', blob: Blob): Promise<UploadSent> {
  let response: Response;
  try {
    response = await fetch(`${path}?kind=${kind}`, {
      method: 'PUT',
      credentials: 'same-origin',
      headers: { 'Content-Type': blob.type || 'application/octet-stream' },
      body: blob,
    });
  } catch {
    return { status: 'later' };
  }
  if (response.ok) return { status: 'done' };
  // Signed out, too many at once, the server unwell: sent again later.
  if ([401, 408, 429].includes(response.status) || response.status >= 500) {
    return { status: 'later' };
  }
  // The error's message read by hand: the API's classic-zod error schema would bring all of zod to
  // the installed app's first visit (docs/decisions/0003-zod-mini-on-the-installed-app.md).
  const body = (await response.json().catch(() => null)) as {
    error?: { message?: unknown };
  } | null;
  const message = body?.error?.message;
  return {
    status: 'refused',
    problem:
      typeof message === 'string' && message
        ? message.slice(0, 500)
        : `The server answered ${response.status}.`,
  };
}

/**
 * Photos and files on records for the running app (@pipit/runtime's RuntimeFiles): kept on this
 * device at once (client/sync/visitor-data/record-files.ts), sent to the server for a signed-in
 * person — a private collection's to their own data, a shared one's to the space shown — and shown
 * from this device's copy, else the server's (whose thumbnails the service worker keeps). Someone
 * not signed in keeps them on this device only.
 */
export function useRecordFiles(options: {
  appId: string;
  accountId: string | null;
  definition: ReadDefinition;
  spaceId: string | null;
}): RuntimeFiles {
  const { appId, accountId, definition, spaceId } = options;
  const uploads = useRef<{ kick(): void } | null>(null);

  useEffect(() => {
    if (!accountId) return;
    let started: { kick(): void; stop(): void } | null = null;
    let live = true;
    loadRecordFiles().then(
      ({ startUploads }) => {
        if (!live) return;
        started = startUploads({
          owner: accountId,
          send: (upload, blob) => sendFile(upload.path, upload.kind, blob),
        });
        uploads.current = started;
      },
      (error: unknown) => console.warn('Could not start sending photos and files:', error),
    );
    return () => {
      live = false;
      started?.stop();
      uploads.current = null;
    };
  }, [accountId]);

  return useMemo((): RuntimeFiles => {
    const base = (collectionId: string) => {
      const collection = definition.collections.find((c) => c.id === collectionId);
      return collection && isSharedCollection(collection) && spaceId
        ? `/api/spaces/${spaceId}/files`
        : `/api/apps/${appId}/files`;
    };
    return {
      async add(collectionId, kind, picked) {
        const blob = picked as unknown as Blob;
        const { keepOnDevice, queueUpload, sha256Hex } = await loadRecordFiles();
        const { thumbnail } = kind === 'image' ? await readPhoto(blob) : { thumbnail: null };
        const hash = await sha256Hex(blob);
        try {
          await keepOnDevice({
            hash,
            blob,
            ...(thumbnail ? { thumbnail } : {}),
            type: picked.type,
            name: picked.name,
            size: picked.size,
          });
        } catch (error) {
          console.warn('Could not keep a file on this device:', error);
          throw new Error(DEVICE_FULL, { cause: error });
        }
        if (accountId) {
          await queueUpload({
            owner: accountId,
            path: `${base(collectionId)}/${hash}`,
            hash,
            kind,
          });
          uploads.current?.kick();
        }
        return formatFileReference({
          hash,
          size: picked.size,
          type: picked.type,
          name: picked.name.slice(0, 200),
        });
      },
      async url(collectionId, hash, variant) {
        const own = await loadRecordFiles()
          .then(({ deviceFileUrl }) => deviceFileUrl(hash, variant))
          .catch(() => null);
        if (own) return own;
        if (!accountId) return null;
        return `${base(collectionId)}/${hash}${variant === 'thumbnail' ? '/thumbnail' : ''}`;
      },
    };
  }, [appId, accountId, definition, spaceId]);
}

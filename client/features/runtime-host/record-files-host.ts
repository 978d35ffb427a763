import {
  formatFileReference,
  isSharedCollection,
  type ReadDefinition,
} from '@pipit/app-definition';
import type { RuntimeFiles } from '@pipit/runtime';
import { useEffect, useMemo, useRef } from 'react';
import { lazyModule } from '@pipit/runtime';
import { loadRecordFiles } from '../../sync/visitor-data/record-files-loader';

/**
 * Reading a picked photo and sending files: their own chunk, loaded ahead of the first render of an
 * app with photo or file fields (preloadRecordFiles), so a photo taken offline right after is kept.
 */
const io = lazyModule(() => import('./record-files-io'));

/** Loads what keeping, showing and sending photos and files takes. Never rejects. */
export async function preloadRecordFiles(): Promise<void> {
  await Promise.all([io.load(), loadRecordFiles()]).catch(() => undefined);
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
          send: async (upload, blob) => (await io.load()).sendFile(upload.path, upload.kind, blob),
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
        const [{ keepOnDevice, queueUpload, sha256Hex }, { readPhoto, DEVICE_FULL }] =
          await Promise.all([loadRecordFiles(), io.load()]);
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

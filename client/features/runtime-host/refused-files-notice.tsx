import { useEffect, useState } from 'react';
import type { PendingUpload } from '../../sync/visitor-data/record-files';
import { loadRecordFiles } from '../../sync/visitor-data/record-files-loader';

/**
 * The photos and files the server refused for this person (the quota full, not an image it can
 * read), each with the server's words and what happens now: it stays on this device, shown there,
 * and is not sent again. Dismissing one forgets that it waits.
 */
export function RefusedFilesNotice({ accountId }: { accountId: string | null }) {
  const [refused, setRefused] = useState<PendingUpload[]>([]);
  useEffect(() => {
    if (!accountId) return;
    let stop: (() => void) | null = null;
    let live = true;
    loadRecordFiles().then(
      ({ watchRefusedUploads }) => {
        if (live) stop = watchRefusedUploads(accountId, setRefused);
      },
      () => undefined,
    );
    return () => {
      live = false;
      stop?.();
    };
  }, [accountId]);
  if (!accountId || refused.length === 0) return null;
  return (
    <aside className="app-host__notices" aria-label="Photos and files not sent">
      {refused.map((upload) => (
        <div key={upload.key} className="app-host__notice" role="status">
          <p>
            {upload.kind === 'image' ? 'A photo' : 'A file'} couldn’t be sent to the server:{' '}
            {upload.problem} It stays on this device only.
          </p>
          <button
            type="button"
            className="app-host__link"
            onClick={() =>
              void loadRecordFiles().then(({ dismissRefusedUpload }) =>
                dismissRefusedUpload(upload.key),
              )
            }
          >
            Dismiss
          </button>
        </div>
      ))}
    </aside>
  );
}

import { useState } from 'react';
import { Button } from '../../../ui/button';
import { Notice } from '../../../ui/notice';
import { useOnlineStatus } from '../../../ui/use-online-status';
import { describeError } from '../../../platform/api/request';
import { downloadFile } from '../../../platform/api/transfer';
import { downloadBlob } from './download';
import { EditorDialog } from '../common/editor-dialog';

/**
 * Export (docs/product/portable-file.md): the app as one `.pipit` file — its definition, published
 * versions, checkpoints and images, and the person's own data in it when they tick the box — that
 * Import on `/create` opens on any Pipit server. The server writes it, so it needs a connection;
 * "Export JSON" beside it stays for the definition alone, offline too.
 */
export function ExportButton({ appId, title }: { appId: string; title: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="secondary" size="small" onClick={() => setOpen(true)}>
        Export
      </Button>
      {open ? <ExportDialog appId={appId} title={title} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function ExportDialog({
  appId,
  title,
  onClose,
}: {
  appId: string;
  title: string;
  onClose(): void;
}) {
  const online = useOnlineStatus();
  const [withData, setWithData] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  async function download() {
    setBusy(true);
    setProblem(null);
    setDone(false);
    try {
      const file = await downloadFile(`/api/apps/${appId}/export${withData ? '?data=1' : ''}`);
      downloadBlob(file.fileName ?? `${title || 'app'}.pipit`, file.blob);
      setDone(true);
    } catch (error) {
      setProblem(describeError(error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <EditorDialog
      title="Export this app"
      onClose={onClose}
      actions={
        <>
          <Button variant="secondary" onClick={onClose}>
            Close
          </Button>
          <Button onClick={() => void download()} disabled={busy || !online} autoFocus>
            {busy ? 'Preparing the file…' : 'Download .pipit file'}
          </Button>
        </>
      }
    >
      <p>
        One file with the app, its published versions, its history and its images. Import it on any
        Pipit server from <strong>Create</strong>.
      </p>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={withData}
          onChange={(event) => setWithData(event.target.checked)}
        />
        <span>Include my data in this app</span>
      </label>
      <p className="field__hint">
        Only your own records come along, never anyone else’s. Leave it unticked to share the app
        without them.
      </p>
      {!online ? (
        <Notice tone="offline" title="You’re offline">
          <p>
            The file is made by the server, so exporting needs a connection. “Export JSON” saves the
            app’s definition from this device meanwhile.
          </p>
        </Notice>
      ) : null}
      {problem ? (
        <Notice tone="danger" title="The export didn’t work" live="alert">
          <p>{problem}</p>
        </Notice>
      ) : null}
      {done ? (
        <Notice tone="success" title="Downloaded">
          <p>Your browser saved the file.</p>
        </Notice>
      ) : null}
    </EditorDialog>
  );
}

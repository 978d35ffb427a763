import {
  type AppDefinition,
  DefinitionError,
  looksLikeZip,
  NOT_A_PIPIT_FILE,
  parseImport,
  PORTABLE_LIMITS,
  readPipitFile,
  withoutUploads,
} from '@pipit/app-definition';
import { groupedCount, type ImportResponse, importResponseSchema } from '@pipit/protocol';
import { useId, useState } from 'react';
import { Button } from '../../ui/button';
import { ButtonLink } from '../../ui/button-link';
import { Notice } from '../../ui/notice';
import { createApp, reconcileApps } from '../../platform/app-registry';
import { ApiRequestError, describeError, OfflineError } from '../../platform/api/request';
import { uploadFile } from '../../platform/api/transfer';

/** The most a `.json` export may be: an app's document limit. */
const JSON_MAX_BYTES = 5 * 1024 * 1024;

/** Whether these bytes start like a JSON object (an old `.json` export), spaces and a BOM aside. */
function looksLikeJson(bytes: Uint8Array): boolean {
  for (const byte of bytes.subarray(0, 1024)) {
    if (byte === 0x7b) return true; // {
    // Spaces, tabs, line ends and a UTF-8 byte order mark may come first; nothing else.
    if (![0x20, 0x09, 0x0a, 0x0d, 0xef, 0xbb, 0xbf].includes(byte)) return false;
  }
  return false;
}

type Stage =
  | { kind: 'idle' }
  | { kind: 'uploading'; progress: number }
  | { kind: 'imported'; result: ImportResponse }
  | { kind: 'duplicate'; file: File; appId: string | undefined; message: string }
  | {
      kind: 'on-device';
      apps: Array<{ id: string; title: string }>;
      left: { versions: number; checkpoints: number; images: number; data: boolean };
    };

const plural = (n: number, one: string, many = `${one}s`) =>
  `${groupedCount(n)} ${n === 1 ? one : many}`;

/**
 * `/create`'s import (docs/product/portable-file.md): a `.pipit` file goes to the server, which
 * recreates its apps with their history, images and data and says which ids it had to change; the
 * same file again is recognised, with a choice to open what it made or import a copy. Offline (or
 * with the server out of reach) the file is read here and each app is made on this device from
 * its definition alone. An old `.json` export is made on the device, as before.
 */
export function ImportFile({
  accountId,
  disabled,
  onJson,
}: {
  accountId: string;
  disabled: boolean;
  /** An old `.json` export: made on the device by the page, as a template is. */
  onJson(build: () => AppDefinition): void;
}) {
  const inputId = useId();
  const { stage, problem, choose, importCopy } = useImport(accountId, onJson);

  const busy = disabled || stage.kind === 'uploading';
  return (
    <div className="stack create-import-area">
      <label className="create-import" htmlFor={inputId}>
        <span className="create-import__label">Choose a .pipit or .json file</span>
      </label>
      <input
        id={inputId}
        type="file"
        accept=".pipit,application/zip,application/json,.json"
        disabled={busy}
        onChange={(event) => void choose(event.target.files?.[0], event.target)}
      />
      {stage.kind === 'uploading' ? (
        <p className="field__hint" role="status">
          <progress max={1} value={stage.progress} /> Importing… {Math.round(stage.progress * 100)}%
        </p>
      ) : null}
      {problem ? (
        <Notice tone="danger" title="That file couldn’t be imported" live="alert">
          <p>{problem}</p>
        </Notice>
      ) : null}
      {stage.kind === 'imported' ? <ImportReport result={stage.result} /> : null}
      {stage.kind === 'duplicate' ? (
        <DuplicateNotice stage={stage} onCopy={() => void importCopy(stage.file)} />
      ) : null}
      {stage.kind === 'on-device' ? <OnDeviceReport stage={stage} /> : null}
    </div>
  );
}

/**
 * Where an import stands, and the problem that stopped it. `choose` takes the file picked: an old
 * `.json` export goes to `onJson`, a `.pipit` file to the server, or is read here offline.
 */
function useImport(accountId: string, onJson: (build: () => AppDefinition) => void) {
  const [stage, setStage] = useState<Stage>({ kind: 'idle' });
  const [problem, setProblem] = useState<string | null>(null);

  async function onDevice(bytes: Uint8Array) {
    const file = readPipitFile(bytes);
    const apps: Array<{ id: string; title: string }> = [];
    const left = { versions: 0, checkpoints: 0, images: 0, data: false };
    for (const app of file.manifest.apps) {
      const { definition } = withoutUploads(file.definition(app));
      apps.push({ id: await createApp(accountId, definition), title: definition.meta.title });
      left.versions += app.files.versions.length;
      left.checkpoints += app.files.checkpoints.length;
      left.images += app.files.images.length;
      left.data ||= app.files.data !== null;
    }
    if (apps.length === 0) throw new DefinitionError('This file holds no app to import.');
    setStage({ kind: 'on-device', apps, left });
  }

  async function upload(file: File, bytes: Uint8Array | null, copy: boolean) {
    setStage({ kind: 'uploading', progress: 0 });
    try {
      const result = await uploadFile(
        `/api/apps/import${copy ? '?copy=1' : ''}`,
        file,
        importResponseSchema,
        {
          type: 'application/zip',
          onProgress: (progress) => setStage({ kind: 'uploading', progress }),
        },
      );
      // The new apps join this device's list, so the editor opens them at once.
      await reconcileApps(accountId);
      setStage({ kind: 'imported', result });
    } catch (error) {
      if (error instanceof ApiRequestError && error.code === 'already_imported') {
        setStage({ kind: 'duplicate', file, appId: error.appId, message: error.message });
      } else if (error instanceof OfflineError) {
        await onDevice(bytes ?? new Uint8Array(await file.arrayBuffer()));
      } else {
        throw error;
      }
    }
  }

  async function choose(file: File | undefined, input: HTMLInputElement) {
    if (!file) return;
    setProblem(null);
    setStage({ kind: 'idle' });
    try {
      if (file.size > PORTABLE_LIMITS.fileBytes) {
        throw new DefinitionError('That file is over 64 MB, the most a Pipit file may be.');
      }
      const bytes = new Uint8Array(await file.arrayBuffer());
      if (!looksLikeZip(bytes)) {
        // Neither a .pipit file nor JSON: the words the server would answer with.
        if (!looksLikeJson(bytes)) throw new DefinitionError(NOT_A_PIPIT_FILE);
        if (file.size > JSON_MAX_BYTES) {
          throw new DefinitionError(
            'That file is over 5 MB, the most an app can be. Choose a Pipit export.',
          );
        }
        // Read here, so what is wrong with it shows in this section, beside the file chosen.
        const definition = parseImport(new TextDecoder().decode(bytes));
        onJson(() => definition);
        return;
      }
      if (navigator.onLine) await upload(file, bytes, false);
      else await onDevice(bytes);
    } catch (error) {
      setStage({ kind: 'idle' });
      setProblem(error instanceof DefinitionError ? error.message : describeError(error).message);
    } finally {
      input.value = '';
    }
  }

  async function importCopy(file: File) {
    setProblem(null);
    try {
      await upload(file, null, true);
    } catch (error) {
      setStage({ kind: 'idle' });
      setProblem(describeError(error).message);
    }
  }

  return { stage, problem, choose, importCopy };
}

/** The same file imported again: open what it made, or import a copy. */
function DuplicateNotice({
  stage,
  onCopy,
}: {
  stage: Extract<Stage, { kind: 'duplicate' }>;
  onCopy(): void;
}) {
  return (
    <Notice tone="warning" title="You imported this file already">
      <p>{stage.message}</p>
      <div className="create-import__actions">
        {stage.appId ? (
          <ButtonLink to="/apps/$id/edit" params={{ id: stage.appId }}>
            Open it
          </ButtonLink>
        ) : null}
        <Button variant="secondary" onClick={onCopy}>
          Import again as a copy
        </Button>
      </div>
    </Notice>
  );
}

/** What an import made on this device, offline, and what the file holds that it left out. */
function OnDeviceReport({ stage }: { stage: Extract<Stage, { kind: 'on-device' }> }) {
  return (
    <Notice tone="offline" title="Imported on this device">
      <p>
        {stage.apps.length === 1
          ? `“${stage.apps[0]!.title}” was made on this device from the file’s definition; it syncs`
          : `${plural(stage.apps.length, 'app')} were made on this device from the file’s definitions; they sync`}{' '}
        to your account when you’re back online.
      </p>
      <p>
        History, images and data come only when you import the file online
        {leftOut(stage.left)}.
      </p>
      <div className="create-import__actions">
        {stage.apps.map((app) => (
          <ButtonLink key={app.id} to="/apps/$id/edit" params={{ id: app.id }}>
            Open {app.title}
          </ButtonLink>
        ))}
      </div>
    </Notice>
  );
}

/** What an import made on the device leaves behind, in words (or nothing). */
function leftOut(left: { versions: number; checkpoints: number; images: number; data: boolean }) {
  const parts = [
    left.versions ? plural(left.versions, 'published version') : null,
    left.checkpoints ? plural(left.checkpoints, 'checkpoint') : null,
    left.images ? plural(left.images, 'image') : null,
    left.data ? 'your data' : null,
  ].filter((part): part is string => part !== null);
  return parts.length > 0 ? ` (this file also holds ${parts.join(', ')})` : '';
}

/** What an import made, and which ids it had to change because this server used them already. */
function ImportReport({ result }: { result: ImportResponse }) {
  const { remapped, notes, origin } = result.report;
  const apps = Object.keys(remapped.apps).length;
  return (
    <Notice
      tone="success"
      title={
        result.apps.length === 1
          ? `Imported “${result.apps[0]!.title}”`
          : `Imported ${plural(result.apps.length, 'app')}`
      }
    >
      <p>From {origin}:</p>
      <ul>
        {result.apps.map((app) => (
          <li key={app.id}>
            {app.title}: {plural(app.versions, 'published version')},{' '}
            {plural(app.checkpoints, 'checkpoint')}, {plural(app.images, 'image')},{' '}
            {plural(app.records, 'record')} of your data
          </li>
        ))}
      </ul>
      {apps > 0 ? (
        <p>
          {apps === 1 && result.apps.length === 1
            ? 'This server already had this app (the same file was imported before, or it came from here), so the import is a new copy with an address of its own: links to the old address open the other one.'
            : `${plural(apps, 'app')} already existed on this server, so ${apps === 1 ? 'it is a new copy' : 'they are new copies'} with addresses of their own: links to the old addresses open the others.`}
        </p>
      ) : (
        <p>Links to the app’s address work here as they did where it came from.</p>
      )}
      {notes.map((note) => (
        <p key={note}>{note}</p>
      ))}
      <div className="create-import__actions">
        {result.apps.map((app) => (
          <ButtonLink key={app.id} to="/apps/$id/edit" params={{ id: app.id }}>
            Open {app.title}
          </ButtonLink>
        ))}
      </div>
    </Notice>
  );
}

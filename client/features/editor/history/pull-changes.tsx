import {
  chooseTheirs,
  diffDefinitions,
  type MergeConflict,
  mergeDefinitions,
} from '@pipit/app-definition';
import type { Upstream } from '@pipit/protocol';
import { useEffect, useRef, useState } from 'react';
import { describeError } from '../../../platform/api/request';
import {
  checkUpstream,
  loadUpstream,
  markPulled,
  readCheckpointDefinition,
} from '../../../platform/history';
import { createUpstreamWatch, UPSTREAM_CHECK_INTERVAL_MS } from '../../../platform/upstream-watch';
import { Button } from '../../../ui/button';
import { Notice } from '../../../ui/notice';
import { ChangeList } from '../common/change-list';
import { ConflictList } from '../common/conflict-list';
import { EditorDialog } from '../common/editor-dialog';
import { MergeDialog } from '../common/merge-dialog';
import { useEditorIfReady } from '../common/editor-context';
import './history-panel.css';

/**
 * A remix's editor says when the app it came from publishes a newer version, what changed there,
 * and pulls it in as one change of this person's (docs/product/history.md#remixes): a three-way
 * merge that keeps the remix's own edits, lists each conflict, and lets the person take the
 * original's value instead. Needs a connection (the versions are on the server).
 */
export function PullChangesNotice({ appId }: { appId: string }) {
  const editor = useEditorIfReady();
  const [upstream, setUpstream] = useState<Upstream | null>(null);
  const [open, setOpen] = useState(false);
  const readOnly = editor?.readOnly ?? true;

  // Learns of a newer version while the editor is open, not only when it loads: a
  // small check when the page is shown again, focused, back online, and every few minutes.
  const watch = useRef<ReturnType<typeof createUpstreamWatch> | null>(null);
  useEffect(() => {
    if (readOnly) return;
    const watcher = createUpstreamWatch({
      check: () => checkUpstream(appId),
      load: () => loadUpstream(appId),
      onUpstream: setUpstream,
      now: () => Date.now(),
      isOnline: () => navigator.onLine,
      isVisible: () => document.visibilityState === 'visible',
    });
    watch.current = watcher;
    void watcher.start();
    const poke = () => void watcher.poke();
    const timer = setInterval(poke, UPSTREAM_CHECK_INTERVAL_MS);
    window.addEventListener('focus', poke);
    window.addEventListener('online', poke);
    document.addEventListener('visibilitychange', poke);
    return () => {
      watcher.stop();
      clearInterval(timer);
      window.removeEventListener('focus', poke);
      window.removeEventListener('online', poke);
      document.removeEventListener('visibilitychange', poke);
    };
  }, [appId, readOnly]);

  if (!editor || readOnly || !upstream) return null;
  return (
    <>
      {upstream.newer ? (
        <Notice tone="info" title="The original app has a newer version">
          <p>
            {upstream.source.title} by{' '}
            {upstream.source.author.displayName || upstream.source.author.username} published
            version {upstream.latest.version}; this remix is based on version{' '}
            {upstream.base.version}. Pulling keeps your own changes.
          </p>
          <Button size="small" onClick={() => setOpen(true)}>
            See what changed
          </Button>
        </Notice>
      ) : null}
      {open ? (
        <PullDialog
          appId={appId}
          upstream={upstream}
          onClose={() => setOpen(false)}
          onPulled={() => {
            const pulled = { ...upstream, base: upstream.latest, newer: false };
            watch.current?.shown(pulled);
            setUpstream(pulled);
          }}
        />
      ) : null}
    </>
  );
}

function PullDialog({
  appId,
  upstream,
  onClose,
  onPulled,
}: {
  appId: string;
  upstream: Upstream;
  onClose(): void;
  onPulled(): void;
}) {
  const editor = useEditorIfReady();
  const [problem, setProblem] = useState<string | null>(null);
  const [result, setResult] = useState<{ arrived: number; conflicts: MergeConflict[] } | null>(
    null,
  );
  const [taken, setTaken] = useState<Set<number>>(new Set());
  if (!editor) return null;

  let base, theirs;
  try {
    base = readCheckpointDefinition(upstream.base.definition);
    theirs = readCheckpointDefinition(upstream.latest.definition);
  } catch (error) {
    return (
      <EditorDialog title="Pull changes" onClose={onClose}>
        <Notice tone="danger" title="The original’s versions can’t be read" live="alert">
          <p>{describeError(error).message}</p>
        </Notice>
      </EditorDialog>
    );
  }
  const incoming = diffDefinitions(base, theirs);

  const pull = async () => {
    setProblem(null);
    try {
      const merged = mergeDefinitions(base, theirs, editor.definition);
      editor.handle.replaceDefinition(merged.definition, 'pull');
      setResult({ arrived: merged.incoming.changes.length, conflicts: merged.conflicts });
      await markPulled(appId, upstream.latest.version);
      onPulled();
    } catch (error) {
      setProblem(describeError(error).message);
    }
  };

  const takeTheirs = (conflict: MergeConflict, index: number) => {
    try {
      editor.handle.replaceDefinition(chooseTheirs(editor.definition, conflict), 'pull');
      setTaken(new Set([...taken, index]));
    } catch (error) {
      setProblem(describeError(error).message);
    }
  };

  return (
    <MergeDialog
      title={result ? 'Changes pulled' : `Pull version ${upstream.latest.version}`}
      done={result !== null}
      problem={problem}
      go={{ label: 'Pull changes', onClick: () => void pull(), autoFocus: true }}
      onClose={onClose}
    >
      {result ? (
        <>
          <p role="status">
            {result.arrived === 1 ? '1 change arrived' : `${result.arrived} changes arrived`}
            {result.conflicts.length > 0
              ? `. ${result.conflicts.length === 1 ? 'One thing was' : `${result.conflicts.length} things were`} changed both here and in the original: your version is kept.`
              : ', with nothing in conflict.'}{' '}
            Undo takes the whole pull back in one step.
          </p>
          {result.conflicts.length > 0 ? (
            <ConflictList
              conflicts={result.conflicts}
              taken={taken}
              theirs="the original’s"
              onTake={takeTheirs}
            />
          ) : null}
        </>
      ) : (
        <>
          <p>
            What changed in the original between version {upstream.base.version} and version{' '}
            {upstream.latest.version}:
          </p>
          {incoming.changes.length === 0 ? (
            <p>Nothing that changes the app.</p>
          ) : (
            <ChangeList changes={incoming.changes} label="Changes in the original" />
          )}
          <p className="editor-muted">
            Your own changes stay. Where you and the original changed the same thing, yours is kept
            and listed, and you can take the original’s instead. Your visitors keep their data.
          </p>
        </>
      )}
    </MergeDialog>
  );
}

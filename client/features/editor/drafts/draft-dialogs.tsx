import {
  type AppDefinition,
  changeParts,
  chooseTheirs,
  diffDefinitions,
  type MergeConflict,
  mergeDefinitions,
  type ReadDefinition,
  withoutInvalid,
} from '@pipit/app-definition';
import { useState } from 'react';
import { describeError } from '../../../platform/api/request';
import { closeDraft, rebaseDraft } from '../../../platform/drafts';
import { saveCheckpoint } from '../../../platform/history';
import type { AppDocumentHandle } from '../../../sync/app-document/app-document';
import { forgetLocalDraft } from '../../../sync/app-document/local-drafts';
import { ChangeList } from '../common/change-list';
import { ConflictList } from '../common/conflict-list';
import { useEditor } from '../common/editor-context';
import { MergeDialog } from '../common/merge-dialog';
import { PartReview, type ProposedChange, takenInto } from '../common/part-review';
import { useLatest } from '../common/use-latest';

/*
 * A draft's two merges (docs/product/drafts.md): Update draft takes the app's changes since the
 * draft's base into the draft (its own edits kept, each conflict listed to take the app's value
 * instead; the base moves with it, first on the server), and Merge into the app takes the
 * draft's changes into the app part by part, as Ask AI's suggestions are taken — once the server
 * closed the draft for this person, one change of theirs credited to their draft, with the app as
 * it was before saved in History.
 */

/** A draft's changes since its base, part by part, as the review lists them. */
function proposedChange(base: AppDefinition, draft: ReadDefinition): ProposedChange {
  const proposed = withoutInvalid(draft);
  return { base, proposed, parts: changeParts(base, proposed) };
}

const conflictWords = (n: number, where: string) =>
  n === 1
    ? `One thing was changed both in the draft and in the app: ${where} is kept.`
    : `${n} things were changed both in the draft and in the app: ${where} is kept.`;

export function UpdateDraftDialog({
  appId,
  draftId,
  base,
  appNow,
  onUpdated,
  onClose,
}: {
  appId: string;
  draftId: string;
  base: AppDefinition;
  appNow: ReadDefinition;
  onUpdated(base: AppDefinition): void;
  onClose(): void;
}) {
  const editor = useEditor();
  const draftNow = useLatest(editor.definition);
  const app = useLatest(appNow);
  const [problem, setProblem] = useState<string | null>(null);
  const [result, setResult] = useState<{ conflicts: MergeConflict[]; used: Set<number> } | null>(
    null,
  );
  const incoming = diffDefinitions(base, appNow);

  const [working, setWorking] = useState(false);
  const update = async () => {
    setProblem(null);
    setWorking(true);
    const taken = withoutInvalid(app.current);
    try {
      // The base moves on the server first: if that fails, the draft is left as it was.
      await rebaseDraft(appId, draftId, taken);
    } catch (error) {
      setProblem(`${describeError(error).message} The draft was not changed.`);
      setWorking(false);
      return;
    }
    try {
      const merged = mergeDefinitions(base, taken, draftNow.current);
      // Not undone by Undo: the base moved with it (undone, the app's changes would read as the
      // draft's own undoing them, and a merge would take them out of the app).
      editor.handle.replaceDefinition(merged.definition, 'pull', { undoable: false });
      onUpdated(taken);
      if (merged.conflicts.length === 0) onClose();
      else setResult({ conflicts: merged.conflicts, used: new Set() });
    } catch (error) {
      // The draft did not take the app's changes: it compares against what it did take.
      await rebaseDraft(appId, draftId, base).catch(() => undefined);
      setProblem(describeError(error).message);
    } finally {
      setWorking(false);
    }
  };

  const takeApps = (conflict: MergeConflict, index: number) => {
    try {
      editor.handle.replaceDefinition(chooseTheirs(draftNow.current, conflict), 'pull');
      setResult((was) => was && { ...was, used: new Set([...was.used, index]) });
    } catch (error) {
      setProblem(describeError(error).message);
    }
  };

  return (
    <MergeDialog
      title={result ? 'Draft updated' : 'Update the draft'}
      done={result !== null}
      problem={problem}
      go={{
        label: working ? 'Updating…' : 'Update draft',
        onClick: () => void update(),
        disabled: working,
        autoFocus: true,
      }}
      onClose={onClose}
    >
      {result ? (
        <>
          <p role="status">
            The app’s changes are in the draft.{' '}
            {conflictWords(result.conflicts.length, 'the draft’s')}
          </p>
          <ConflictList
            conflicts={result.conflicts}
            taken={result.used}
            theirs="the app’s"
            onTake={takeApps}
          />
        </>
      ) : (
        <>
          <p>What changed in the app since the draft began or was last updated:</p>
          <ChangeList changes={incoming.changes} label="Changes in the app" showProperties />
          <p className="editor-muted">
            The draft’s own changes stay. Where the draft and the app changed the same thing, the
            draft’s is kept and listed, and you can take the app’s instead.
          </p>
        </>
      )}
    </MergeDialog>
  );
}

export function MergeDraftDialog({
  appId,
  draftId,
  owner,
  name,
  base,
  draftNow,
  app,
  onClose,
  onMerged,
}: {
  appId: string;
  draftId: string;
  owner: string;
  name: string;
  base: AppDefinition;
  draftNow: ReadDefinition;
  app: { definition: ReadDefinition; handle: AppDocumentHandle };
  onClose(): void;
  onMerged(): void;
}) {
  // The draft as it is when the review opens: its parts do not move under the person's ticks.
  const [change, setChange] = useState<ProposedChange>(() => proposedChange(base, draftNow));
  const [taken, setTaken] = useState<Set<string>>(() => new Set(change.parts.map((p) => p.key)));
  const latest = useLatest(app.definition);
  const draftLatest = useLatest(draftNow);
  const [problem, setProblem] = useState<string | null>(null);
  const [working, setWorking] = useState(false);
  const [result, setResult] = useState<{
    conflicts: MergeConflict[];
    used: Set<number>;
  } | null>(null);

  const finish = () => {
    onMerged();
    void forgetLocalDraft(owner, appId, draftId);
  };

  const merge = async () => {
    setProblem(null);
    // A collaborator changed the draft while this person reviewed it: they review that too.
    const now = proposedChange(base, draftLatest.current);
    if (diffDefinitions(change.proposed, now.proposed).changes.length > 0) {
      setChange(now);
      setTaken(new Set(now.parts.map((p) => p.key)));
      setProblem('The draft changed while you were reviewing it. Here it is as it is now.');
      return;
    }
    setWorking(true);
    try {
      // Whoever merges or deletes it first decides: nothing is taken of a draft closed meanwhile.
      const already = await closeDraft(appId, draftId, 'merged');
      if (already) {
        setProblem(`${already} Nothing was merged now.`);
        return;
      }
      // The app before the merge, in its history (kept on the device until sent, offline too).
      await saveCheckpoint(owner, appId, {
        name: `Before merging the draft “${name}”`.slice(0, 80),
        kind: 'manual',
        definition: latest.current,
      });
      const merged = takenInto(change, latest.current, taken);
      app.handle.replaceDefinition(merged.definition, 'draft');
      if (merged.conflicts.length === 0) finish();
      else setResult({ conflicts: merged.conflicts, used: new Set() });
    } catch (error) {
      setProblem(describeError(error).message);
    } finally {
      setWorking(false);
    }
  };

  const takeDrafts = (conflict: MergeConflict, index: number) => {
    try {
      app.handle.replaceDefinition(chooseTheirs(latest.current, conflict), 'draft');
      setResult((was) => was && { ...was, used: new Set([...was.used, index]) });
    } catch (error) {
      setProblem(describeError(error).message);
    }
  };

  return (
    <MergeDialog
      title={result ? 'Draft merged' : `Merge “${name}” into the app`}
      done={result !== null}
      problem={problem}
      go={{
        label: working
          ? 'Merging…'
          : taken.size === change.parts.length
            ? 'Merge all'
            : `Merge ${taken.size} of ${change.parts.length}`,
        onClick: () => void merge(),
        disabled: taken.size === 0 || working,
      }}
      onClose={onClose}
      onDone={finish}
    >
      {result ? (
        <>
          <p role="status">
            The changes you took are in the app, and the draft is closed.{' '}
            {conflictWords(result.conflicts.length, 'the app’s')} History holds the app as it was
            before (“Before merging the draft”).
          </p>
          {result.conflicts.length > 0 ? (
            <ConflictList
              conflicts={result.conflicts}
              taken={result.used}
              theirs="the draft’s"
              onTake={takeDrafts}
            />
          ) : null}
        </>
      ) : change.parts.length === 0 ? (
        <p>This draft changes nothing in the app. Delete it, or make changes first.</p>
      ) : (
        <>
          <p>
            The draft’s changes since it began or was last updated. Nothing changes in the app until
            you merge; untick what you don’t want.
          </p>
          <PartReview
            change={change}
            now={app.definition}
            taken={taken}
            onTake={setTaken}
            failedPreview="These changes no longer fit the app as it is now. Update the draft first."
          />
        </>
      )}
    </MergeDialog>
  );
}

import {
  changeParts,
  chooseTheirs,
  DefinitionError,
  type MergeConflict,
} from '@pipit/app-definition';
import { AI_INSTRUCTION_MAX_LENGTH, createId } from '@pipit/protocol';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { describeError } from '../../../platform/api/request';
import { proposeChange } from '../../../platform/ai/app-builder-api';
import { useAiAvailable } from '../../../platform/ai/ai-runs';
import { Button } from '../../../ui/button';
import { Loading } from '../../../ui/loading';
import { TextArea } from '../../../ui/field';
import { Notice } from '../../../ui/notice';
import { useOnlineStatus } from '../../../ui/use-online-status';
import { EditorDialog } from '../common/editor-dialog';
import { useEditor } from '../common/editor-context';
import { ConflictList } from '../common/conflict-list';
import { useLatest } from '../common/use-latest';
import { decide, keep, SuggestionsButton, type Turn, useKeptSuggestion } from './kept-suggestions';
import { type Suggestion, SuggestionReview, takenInto } from './suggestion-review';

/**
 * "Ask AI" in the editor's top bar (docs/product/ai-builder.md): an instruction in, a suggestion
 * out, reviewed part by part before anything changes (suggestion-review.tsx); the parts taken are
 * merged into the app as it is then, as ONE edit of this person, so their Undo removes all of it
 * and never a collaborator's edit. A revision ("Ask for changes") goes on the same conversation.
 * Not shown to viewers; needs a connection.
 */
export function AskAiButton({ appId }: { appId: string }) {
  const { readOnly } = useEditor();
  const online = useOnlineStatus();
  const available = useAiAvailable();
  // Open: a new question (null), or a kept suggestion to review (its id).
  const [open, setOpen] = useState<{ kept: string | null } | null>(null);
  // Asked again when a dialog closes: what was decided there is no longer waiting.
  const [closings, setClosings] = useState(0);
  // Shown once the server has said it has AI: never to viewers, never on a server without it.
  if (readOnly || available !== true) return null;
  const reason = !online ? 'Ask AI needs a connection. You can keep editing offline.' : null;
  const close = () => {
    setOpen(null);
    setClosings((n) => n + 1);
  };
  return (
    <>
      <SuggestionsButton
        appId={appId}
        refresh={closings}
        onReview={(id) => setOpen({ kept: id })}
      />
      <Button
        variant="secondary"
        size="small"
        disabled={reason !== null}
        title={reason ?? 'Describe a change and let AI make it'}
        onClick={() => setOpen({ kept: null })}
      >
        Ask AI
      </Button>
      {reason ? <span className="visually-hidden">{reason}</span> : null}
      {open ? <AskAiDialog appId={appId} kept={open.kept} onClose={close} /> : null}
    </>
  );
}

function AskAiDialog({
  appId,
  kept,
  onClose,
}: {
  appId: string;
  /** A kept suggestion to review (any editor's), instead of a new question. */
  kept: string | null;
  onClose(): void;
}) {
  const { handle, definition } = useEditor();
  const online = useOnlineStatus();
  const [instruction, setInstruction] = useState('');
  const [working, setWorking] = useState(false);
  // A kept suggestion being read from the server.
  const [opening, setOpening] = useState(kept !== null);
  const [earlier, setEarlier] = useState<Turn[]>([]);
  const [suggestion, setSuggestion] = useState<Suggestion | null>(null);
  // The suggestion a revision is asked for: back to it if the person changes their mind.
  const [revising, setRevising] = useState<Suggestion | null>(null);
  const [taken, setTaken] = useState<Set<string>>(new Set());
  const [problem, setProblem] = useState<string | null>(null);
  // Whether the suggestion is kept for collaborators, in words.
  const [note, setNote] = useState<string | null>(null);

  useKeptSuggestion(appId, kept, {
    opened: (opened) => {
      setSuggestion(opened.suggestion);
      setEarlier(opened.earlier);
      setTaken(new Set(opened.suggestion.parts.map((part) => part.key)));
    },
    failed: setProblem,
    done: () => setOpening(false),
  });

  // The suggestion being kept for collaborators: deciding it waits for that, so a decision made
  // at once never leaves it waiting for them.
  const keeping = useRef<Promise<unknown>>(Promise.resolve());
  const { result, accept, reject, takeSuggestions } = useTaking(
    appId,
    { suggestion, taken, keeping },
    { onClose, onProblem: setProblem },
  );

  // Collaborators see a suggestion in review as they see the AI working; nobody's once closed.
  useEffect(() => {
    handle.setAi(working ? 'working' : suggestion && !result ? 'reviewing' : null);
  }, [handle, working, suggestion, result]);
  useEffect(() => () => handle.setAi(null), [handle]);

  const ask = async (event: FormEvent) => {
    event.preventDefault();
    const text = instruction.trim();
    if (!text) {
      setProblem(
        earlier.length > 0
          ? 'Say what to change in the suggestion first, for example “leave the list as it is”.'
          : 'Say what to change first, for example “add a rating from 1 to 5 to books”.',
      );
      return;
    }
    setWorking(true);
    setProblem(null);
    try {
      const answer = await proposeChange(appId, text, earlier);
      const { base, proposed } = handle.suggestAiEdits(answer.operations);
      const parts = changeParts(base, proposed);
      if (parts.length === 0) {
        setProblem('The AI suggested nothing that changes the app. Ask again in other words.');
        return;
      }
      const made: Suggestion = {
        id: createId(),
        by: null,
        asked: text,
        summary: answer.summary,
        base,
        proposed,
        parts,
      };
      setSuggestion(made);
      setNote(null);
      const keepingIt = keep(appId, made, earlier, revising);
      keeping.current = keepingIt;
      void keepingIt.then(setNote);
      setRevising(null);
      setTaken(new Set(parts.map((part) => part.key)));
      setInstruction('');
    } catch (error) {
      setProblem(error instanceof DefinitionError ? error.message : describeError(error).message);
    } finally {
      setWorking(false);
    }
  };

  const reviseIt = () => {
    if (!suggestion) return;
    setEarlier([...earlier, { instruction: suggestion.asked, summary: suggestion.summary }]);
    setRevising(suggestion);
    setSuggestion(null);
    setProblem(null);
  };

  const backToIt = () => {
    if (!revising) return;
    setEarlier(earlier.slice(0, -1));
    setSuggestion(revising);
    setRevising(null);
    setProblem(null);
  };

  return (
    <EditorDialog
      title="Ask AI"
      onClose={onClose}
      wide={suggestion !== null}
      actions={
        <AskAiActions
          stage={result ? 'taken' : suggestion ? 'review' : 'ask'}
          taken={taken.size}
          parts={suggestion?.parts.length ?? 0}
          revising={revising !== null}
          working={working}
          asked={earlier.length > 0}
          online={online}
          onClose={onClose}
          onReject={() => void reject()}
          onAccept={() => void accept()}
          onRevise={reviseIt}
          onBack={backToIt}
        />
      }
    >
      {result ? (
        <TakenResult result={result} onTake={takeSuggestions} />
      ) : opening ? (
        <Loading label="Opening the suggestion…" />
      ) : suggestion ? (
        <SuggestionReview
          suggestion={suggestion}
          now={definition}
          taken={taken}
          onTake={setTaken}
        />
      ) : kept && earlier.length === 0 ? null : (
        <AskForm
          earlier={earlier}
          instruction={instruction}
          working={working}
          onChange={setInstruction}
          onAsk={(e) => void ask(e)}
        />
      )}
      <AskAiNotes
        note={note && suggestion && !result ? note : null}
        problem={problem}
        offline={!online && !suggestion}
      />
    </EditorDialog>
  );
}

/** Under the dialog's content: whether the suggestion is kept, what went wrong, offline. */
function AskAiNotes({
  note,
  problem,
  offline,
}: {
  note: string | null;
  problem: string | null;
  offline: boolean;
}) {
  return (
    <>
      {note ? <p className="editor-muted">{note}</p> : null}
      {problem ? (
        <Notice tone="danger" title="That didn’t work" live="alert">
          <p>{problem}</p>
        </Notice>
      ) : null}
      {offline ? (
        <Notice tone="offline" title="You’re offline">
          <p>Ask AI needs a connection. You can keep editing offline.</p>
        </Notice>
      ) : null}
    </>
  );
}

/**
 * Taking a suggestion in: the parts ticked merged into the app as it is then, as one edit of
 * this person (whoever decides first decides: one a collaborator accepted or rejected meanwhile
 * is not taken twice); rejecting it; and, where the app changed the same thing since, the
 * suggestion's value taken instead, conflict by conflict.
 */
function useTaking(
  appId: string,
  {
    suggestion,
    taken,
    keeping,
  }: {
    suggestion: Suggestion | null;
    taken: ReadonlySet<string>;
    keeping: { current: Promise<unknown> };
  },
  { onClose, onProblem: setProblem }: { onClose(): void; onProblem(problem: string): void },
) {
  const { handle, definition } = useEditor();
  // The app as it is when the decision comes back: collaborators may have edited meanwhile.
  const latest = useLatest(definition);
  const [result, setResult] = useState<{ conflicts: MergeConflict[]; used: Set<number> } | null>(
    null,
  );
  const accept = async () => {
    if (!suggestion) return;
    await keeping.current;
    const already = await decide(appId, suggestion.id, 'accepted');
    if (already) {
      setProblem(already);
      return;
    }
    try {
      const merged = takenInto(suggestion, latest.current, taken);
      handle.replaceDefinition(merged.definition, 'ai');
      if (merged.conflicts.length === 0) onClose();
      else setResult({ conflicts: merged.conflicts, used: new Set() });
    } catch (error) {
      setProblem(
        error instanceof DefinitionError
          ? error.message
          : 'The change could not be made. Ask again.',
      );
    }
  };

  const reject = async () => {
    await keeping.current;
    if (suggestion) await decide(appId, suggestion.id, 'rejected');
    onClose();
  };

  const takeSuggestions = (conflict: MergeConflict, index: number) => {
    try {
      handle.replaceDefinition(chooseTheirs(latest.current, conflict), 'ai');
      setResult((was) => was && { ...was, used: new Set([...was.used, index]) });
    } catch (error) {
      setProblem(describeError(error).message);
    }
  };

  return { result, accept, reject, takeSuggestions };
}

/** The instruction, and on a revision the conversation so far. */
function AskForm({
  earlier,
  instruction,
  working,
  onChange,
  onAsk,
}: {
  earlier: readonly Turn[];
  instruction: string;
  working: boolean;
  onChange(instruction: string): void;
  onAsk(event: FormEvent): void;
}) {
  return (
    <form id="ask-ai-form" onSubmit={onAsk}>
      {earlier.length > 0 ? (
        <figure className="ask-ai__asked">
          <figcaption>So far</figcaption>
          {earlier.map((turn, i) => (
            <blockquote key={i} dir="auto">
              {turn.instruction}
            </blockquote>
          ))}
        </figure>
      ) : null}
      <TextArea
        label={
          earlier.length > 0
            ? 'What should the AI change in its suggestion?'
            : 'What should change?'
        }
        hint={
          earlier.length > 0
            ? 'For example: keep the list as it is, only add the field.'
            : 'For example: add a rating from 1 to 5 to books and show it in the list.'
        }
        value={instruction}
        rows={3}
        maxLength={AI_INSTRUCTION_MAX_LENGTH}
        disabled={working}
        autoFocus
        onChange={(e) => onChange(e.target.value)}
      />
      {working ? (
        <p role="status">The AI is working on it. Collaborators see that it is working for you.</p>
      ) : null}
    </form>
  );
}

/** The parts taken are in the app; what was changed here meanwhile kept, each to take instead. */
function TakenResult({
  result,
  onTake,
}: {
  result: { conflicts: MergeConflict[]; used: Set<number> };
  onTake(conflict: MergeConflict, index: number): void;
}) {
  return (
    <>
      <p role="status">
        The changes you took are in the app.{' '}
        {result.conflicts.length === 1
          ? 'One thing was changed here since the suggestion was made: your version is kept.'
          : `${result.conflicts.length} things were changed here since the suggestion was made: your version is kept.`}{' '}
        Undo takes the whole change back in one step.
      </p>
      <ConflictList
        conflicts={result.conflicts}
        taken={result.used}
        theirs="the suggestion’s"
        onTake={onTake}
      />
    </>
  );
}

/** The dialog's buttons: asking, reviewing the suggestion, and once it is taken. */
function AskAiActions({
  stage,
  taken,
  parts,
  revising,
  working,
  asked,
  online,
  onClose,
  onReject,
  onAccept,
  onRevise,
  onBack,
}: {
  stage: 'ask' | 'review' | 'taken';
  taken: number;
  parts: number;
  revising: boolean;
  working: boolean;
  /** A revision: the conversation has turns before this one. */
  asked: boolean;
  online: boolean;
  onClose(): void;
  onReject(): void;
  onAccept(): void;
  onRevise(): void;
  onBack(): void;
}) {
  return stage === 'taken' ? (
    <Button onClick={onClose} autoFocus>
      Done
    </Button>
  ) : stage === 'review' ? (
    <>
      <Button variant="ghost" onClick={onClose}>
        Review later
      </Button>
      <Button variant="secondary" onClick={onReject}>
        Reject
      </Button>
      <Button variant="secondary" onClick={onRevise}>
        Ask for changes
      </Button>
      <Button onClick={onAccept} disabled={taken === 0}>
        {taken === parts ? 'Accept all' : `Accept ${taken} of ${parts}`}
      </Button>
    </>
  ) : (
    <>
      {revising && !working ? (
        <Button variant="secondary" onClick={onBack}>
          Back to the suggestion
        </Button>
      ) : (
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
      )}
      <Button type="submit" form="ask-ai-form" disabled={working || !online}>
        {working ? 'Asking…' : asked ? 'Ask again' : 'Ask'}
      </Button>
    </>
  );
}

import { DefinitionError } from '@pipit/app-definition';
import { AI_INSTRUCTION_MAX_LENGTH } from '@pipit/protocol';
import { type FormEvent, useState } from 'react';
import { describeError } from '../../../platform/api/request';
import { type ProposedChange, proposeChange } from '../../../platform/ai/app-builder-api';
import { useAiAvailable } from '../../../platform/ai/ai-runs';
import { Button } from '../../../ui/button';
import { TextArea } from '../../../ui/field';
import { Notice } from '../../../ui/notice';
import { useOnlineStatus } from '../../../ui/use-online-status';
import { EditorDialog } from '../common/editor-dialog';
import { useEditor } from '../common/editor-context';

/**
 * "Ask AI" in the editor's top bar (docs/product/ai-builder.md): an instruction in, a readable summary of
 * the proposed change out, then the change applied as ONE edit of this person, so their Undo
 * removes all of it and never a collaborator's edit. Not shown to viewers; needs a connection.
 */
export function AskAiButton({ appId }: { appId: string }) {
  const { readOnly } = useEditor();
  const online = useOnlineStatus();
  const available = useAiAvailable();
  const [open, setOpen] = useState(false);
  // Shown once the server has said it has AI: never to viewers, never on a server without it.
  if (readOnly || available !== true) return null;
  const reason = !online ? 'Ask AI needs a connection. You can keep editing offline.' : null;
  return (
    <>
      <Button
        variant="secondary"
        size="small"
        disabled={reason !== null}
        title={reason ?? 'Describe a change and let AI make it'}
        onClick={() => setOpen(true)}
      >
        Ask AI
      </Button>
      {reason ? <span className="visually-hidden">{reason}</span> : null}
      {open ? <AskAiDialog appId={appId} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function AskAiDialog({ appId, onClose }: { appId: string; onClose(): void }) {
  const { handle } = useEditor();
  const online = useOnlineStatus();
  const [instruction, setInstruction] = useState('');
  const [working, setWorking] = useState(false);
  const [proposal, setProposal] = useState<(ProposedChange & { asked: string }) | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const ask = async (event: FormEvent) => {
    event.preventDefault();
    const text = instruction.trim();
    if (!text) {
      setProblem('Say what to change first, for example “add a rating from 1 to 5 to books”.');
      return;
    }
    setWorking(true);
    setProblem(null);
    setProposal(null);
    handle.setAiWorking(true);
    try {
      setProposal({ ...(await proposeChange(appId, text)), asked: text });
    } catch (error) {
      setProblem(describeError(error).message);
    } finally {
      handle.setAiWorking(false);
      setWorking(false);
    }
  };

  const apply = () => {
    if (!proposal) return;
    try {
      handle.applyAiEdits(proposal.operations);
      onClose();
    } catch (error) {
      setProblem(
        error instanceof DefinitionError
          ? error.message
          : 'The change could not be made. Ask again.',
      );
      setProposal(null);
    }
  };

  return (
    <EditorDialog
      title="Ask AI"
      onClose={onClose}
      actions={
        proposal ? (
          <>
            <Button variant="secondary" onClick={() => setProposal(null)}>
              Ask something else
            </Button>
            <Button onClick={apply} autoFocus>
              Apply the change
            </Button>
          </>
        ) : (
          <>
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" form="ask-ai-form" disabled={working || !online}>
              {working ? 'Asking…' : 'Ask'}
            </Button>
          </>
        )
      }
    >
      {proposal ? (
        <>
          <figure className="ask-ai__asked">
            <figcaption>You asked</figcaption>
            <blockquote dir="auto">{proposal.asked}</blockquote>
          </figure>
          <p>The AI proposes this change. Undo takes all of it back in one step.</p>
          <ul className="ask-ai__summary" aria-label="Proposed change">
            {proposal.summary.map((line, i) => (
              <li key={i}>{line}</li>
            ))}
          </ul>
        </>
      ) : (
        <form id="ask-ai-form" onSubmit={(e) => void ask(e)}>
          <TextArea
            label="What should change?"
            hint="For example: add a rating from 1 to 5 to books and show it in the list."
            value={instruction}
            rows={3}
            maxLength={AI_INSTRUCTION_MAX_LENGTH}
            disabled={working}
            autoFocus
            onChange={(e) => setInstruction(e.target.value)}
          />
          {working ? (
            <p role="status">
              The AI is working on it. Collaborators see that it is working for you.
            </p>
          ) : null}
        </form>
      )}
      {problem ? (
        <Notice tone="danger" title="That didn’t work" live="alert">
          <p>{problem}</p>
        </Notice>
      ) : null}
      {!online ? (
        <Notice tone="offline" title="You’re offline">
          <p>Ask AI needs a connection. You can keep editing offline.</p>
        </Notice>
      ) : null}
    </EditorDialog>
  );
}

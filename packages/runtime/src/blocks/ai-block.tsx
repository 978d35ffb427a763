import type { ComponentProps } from '@pipit/app-definition';
import { useState } from 'react';
import { ACTION_MESSAGES } from '../actions';
import type { RenderContext, RunContext } from '../render-context';
import type { AiRunView } from '../runtime-data';
import { SafeLink } from '../safe-link';
import { SetupNote } from './setup-note';

type AiState =
  | { kind: 'idle' }
  | { kind: 'working' }
  | { kind: 'queued'; runId: string }
  | { kind: 'done'; text: string }
  | { kind: 'failed'; problem: string };

/** A run kept on the device, as this component shows it. */
function fromView(view: AiRunView): AiState {
  if (view.state === 'done') return { kind: 'done', text: view.text ?? '' };
  if (view.state === 'failed')
    return { kind: 'failed', problem: view.problem ?? ACTION_MESSAGES.aiFailed };
  if (view.state === 'working') return { kind: 'working' };
  return { kind: 'queued', runId: view.id };
}

function LiveAi({ props, run }: { props: ComponentProps<'ai'>; run: RunContext }) {
  const [state, setState] = useState<AiState>({ kind: 'idle' });
  if (!props.aiActionId) return <SetupNote>Choose an AI action for this component.</SetupNote>;
  const aiActionId = props.aiActionId;
  const recordId = run.current?.id ?? null;
  // A queued run shows how it goes; with nothing asked here yet, the last run kept on the device
  // for this action and record (it may have been asked before the app was closed).
  let shown = state;
  if (state.kind === 'queued') {
    const view = run.aiRuns.find((r) => r.id === state.runId);
    if (view) shown = fromView(view);
  } else if (state.kind === 'idle') {
    const view = run.aiRuns.findLast((r) => r.aiActionId === aiActionId && r.recordId === recordId);
    if (view) shown = fromView(view);
  }
  const busy = shown.kind === 'working' || shown.kind === 'queued';
  const onClick = async () => {
    if (busy) return;
    setState({ kind: 'working' });
    const result = await run.runAi(aiActionId);
    if (result.status === 'done') setState({ kind: 'done', text: result.text });
    else if (result.status === 'queued') setState({ kind: 'queued', runId: result.runId });
    else setState({ kind: 'failed', problem: result.problem });
  };
  return (
    <div className="rt-card rt-ai" data-ai-state={shown.kind}>
      {run.aiSignIn ? (
        <p className="rt-muted">
          {ACTION_MESSAGES.aiSignIn}{' '}
          <SafeLink url={run.aiSignIn.href}>{run.aiSignIn.label}</SafeLink>
        </p>
      ) : (
        <button
          type="button"
          className="rt-button rt-button-secondary"
          disabled={!run.aiAvailable}
          aria-disabled={busy || undefined}
          onClick={onClick}
        >
          <span aria-hidden="true">✨ </span>
          {props.label || 'Ask AI'}
        </button>
      )}
      <div className="rt-ai-result" aria-live="polite">
        {!run.aiAvailable && <p className="rt-muted">{ACTION_MESSAGES.aiNotConfigured}</p>}
        {shown.kind === 'working' && <p className="rt-muted">Working on it…</p>}
        {shown.kind === 'queued' && (
          <p className="rt-muted">Queued: this runs when you’re back online.</p>
        )}
        {shown.kind === 'done' && <p className="rt-ai-text">{shown.text}</p>}
        {shown.kind === 'failed' && <p className="rt-ai-problem">{shown.problem}</p>}
      </div>
    </div>
  );
}

export function AiBlock({
  props,
  context,
}: {
  props: ComponentProps<'ai'>;
  context: RenderContext;
}) {
  if (context.run) return <LiveAi props={props} run={context.run} />;
  return (
    <div className="rt-card rt-ai">
      <button type="button" className="rt-button rt-button-secondary">
        <span aria-hidden="true">✨ </span>
        {props.label || 'Ask AI'}
      </button>
      <p className="rt-muted">AI runs when the app is open</p>
    </div>
  );
}

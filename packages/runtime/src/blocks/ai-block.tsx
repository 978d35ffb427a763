import type { ComponentProps } from '@pipit/app-definition';
import { useState } from 'react';
import { ACTION_MESSAGES } from '../actions';
import type { RenderContext, RunContext } from '../render-context';
import { SetupNote } from './setup-note';

type AiState =
  | { kind: 'idle' }
  | { kind: 'working' }
  | { kind: 'done'; text: string }
  | { kind: 'failed'; problem: string };

function LiveAi({ props, run }: { props: ComponentProps<'ai'>; run: RunContext }) {
  const [state, setState] = useState<AiState>({ kind: 'idle' });
  if (!props.aiActionId) return <SetupNote>Choose an AI action for this component.</SetupNote>;
  const aiActionId = props.aiActionId;
  const onClick = async () => {
    if (state.kind === 'working') return;
    setState({ kind: 'working' });
    const result = await run.runAi(aiActionId);
    setState(
      result.ok ? { kind: 'done', text: result.text } : { kind: 'failed', problem: result.problem },
    );
  };
  return (
    <div className="rt-card rt-ai">
      <button
        type="button"
        className="rt-button rt-button-secondary"
        disabled={!run.aiAvailable}
        aria-disabled={state.kind === 'working' || undefined}
        onClick={onClick}
      >
        <span aria-hidden="true">✨ </span>
        {props.label || 'Ask AI'}
      </button>
      <div className="rt-ai-result" aria-live="polite">
        {!run.aiAvailable && <p className="rt-muted">{ACTION_MESSAGES.aiNotConfigured}</p>}
        {state.kind === 'working' && <p className="rt-muted">Working on it…</p>}
        {state.kind === 'done' && <p className="rt-ai-text">{state.text}</p>}
        {state.kind === 'failed' && <p className="rt-ai-problem">{state.problem}</p>}
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

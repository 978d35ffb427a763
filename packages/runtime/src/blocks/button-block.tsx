import type { ComponentProps } from '@pipit/app-definition';
import { useState } from 'react';
import { ACTION_MESSAGES } from '../actions';
import { actionBlocked } from '../permissions';
import type { RenderContext, RunContext } from '../render-context';

/** The screen a button's action navigates to, if its action has a navigate step (the preview). */
export function navigateTarget(context: RenderContext, actionId: string | null): string | null {
  const action = context.definition.actions.find((a) => a.id === actionId);
  for (const step of action?.steps ?? []) {
    if (step.type === 'navigate' && step.props.screenId) return step.props.screenId;
  }
  return null;
}

function LiveButton({ props, run }: { props: ComponentProps<'button'>; run: RunContext }) {
  const [busy, setBusy] = useState(false);
  const onClick = async () => {
    // One run at a time: a double tap must not add two records.
    if (busy) return;
    if (!props.actionId) {
      run.toast(ACTION_MESSAGES.noAction);
      return;
    }
    setBusy(true);
    try {
      await run.runAction(props.actionId);
    } finally {
      setBusy(false);
    }
  };
  return (
    <button
      type="button"
      className={`rt-button rt-button-${props.style}`}
      aria-disabled={busy || undefined}
      onClick={onClick}
    >
      {props.label || 'Button'}
    </button>
  );
}

export function ButtonBlock({
  props,
  context,
}: {
  props: ComponentProps<'button'>;
  context: RenderContext;
}) {
  const { run } = context;
  if (run) {
    // What could only be refused is not offered; the screen says why (AppScreen).
    if (actionBlocked(context.definition, run.data, run.current, props.actionId)) return null;
    return <LiveButton props={props} run={run} />;
  }
  const target = navigateTarget(context, props.actionId);
  const { onNavigate } = context;
  return (
    <button
      type="button"
      className={`rt-button rt-button-${props.style}`}
      onClick={target && onNavigate ? () => onNavigate(target) : undefined}
    >
      {props.label || 'Button'}
    </button>
  );
}

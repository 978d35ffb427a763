import type { ReadDefinition } from '@pipit/app-definition';
import type { AiRunView } from '@pipit/runtime';

const STATE_WORDS: Record<AiRunView['state'], string> = {
  queued: 'Queued: runs when you’re back online',
  working: 'Working on it…',
  done: 'Done',
  failed: 'Failed',
};

/**
 * The AI runs kept on this device for the run-AI steps (an AI component shows its own): queued,
 * working, done or failed with the reason, each until dismissed. Plain text only.
 */
export function AiRunList({
  definition,
  runs,
  onDismiss,
}: {
  definition: ReadDefinition;
  runs: readonly AiRunView[];
  onDismiss: (runId: string) => void;
}) {
  const byId = new Map(definition.aiActions.map((a) => [a.id, a]));
  // An AI component shows the runs of its own action (queued, done, failed): listing them here
  // too said "Queued" twice.
  const inComponents = new Set(
    definition.screens.flatMap((screen) =>
      screen.components.flatMap((c) =>
        c.type === 'ai' && c.props.aiActionId ? [c.props.aiActionId] : [],
      ),
    ),
  );
  // Only the latest run of an action on a record: an older "Done" beside a newer failure says two
  // things at once.
  const latest = new Map<string, AiRunView>();
  for (const run of runs) {
    const action = byId.get(run.aiActionId);
    if (action?.target.kind === 'component' || inComponents.has(run.aiActionId)) continue;
    latest.set(`${run.aiActionId}\u0000${run.recordId ?? ''}`, run);
  }
  const shown = [...latest.values()];
  if (shown.length === 0) return null;
  return (
    <section className="app-host__ai-runs" aria-label="AI runs" aria-live="polite">
      <ul>
        {shown.map((run) => (
          <li key={run.id} data-ai-run={run.state}>
            <span className="app-host__ai-run-name" dir="auto">
              {byId.get(run.aiActionId)?.name ?? 'AI action'}
            </span>{' '}
            <span className="app-host__ai-run-state">
              {STATE_WORDS[run.state]}
              {run.state === 'failed' && run.problem ? `: ${run.problem}` : ''}
              {run.state === 'done' && run.text ? `: ${run.text.split('\n', 1)[0]}` : ''}
            </span>
            {(run.state === 'done' || run.state === 'failed') && (
              <button
                type="button"
                className="app-host__ai-run-dismiss"
                onClick={() => onDismiss(run.id)}
              >
                Dismiss
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

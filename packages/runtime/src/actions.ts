import {
  type Action,
  checkFieldValues,
  type Collection,
  renderTemplate,
  type Step,
} from '@pipit/app-definition';
import {
  ACTION_MESSAGES,
  type ActionEnv,
  type ActionResult,
  collectionOf,
  ownRecord,
  problemOf,
  type RunState,
  StepProblem,
  templateScope,
  type ToastLink,
} from './action-core';
import { lazyModule } from './lazy-module';
import { safeHref } from './safe-url';

export {
  ACTION_MESSAGES,
  lockedMessage,
  templateScope,
  type ActionEnv,
  type ActionInput,
  type ActionResult,
  type ToastLink,
} from './action-core';

/**
 * The AI steps (ai-steps.ts): their own chunk, so an app without AI actions never downloads them;
 * loaded ahead of the first render of an app with some (parts.ts, `preloadRuntimeParts`).
 */
export const aiStepsModule = lazyModule(() => import('./ai-steps'));

/** A toast shows at most this much of an AI answer; the AI component shows all of it. */
const TOAST_TEXT_LENGTH = 300;

/** A run-AI step whose run waits on the device: the action stops there, and says so. */
class StepQueued extends Error {}

function changeRecord(env: ActionEnv, state: RunState, values: Record<string, unknown>): void {
  const { record, collection } = ownRecord(env, state);
  env.data.update(collection, record.id, values);
  const checked = checkFieldValues(collection.fields, values, { complete: false }).values;
  state.record = { ...record, values: { ...record.values, ...checked } };
}

function createRecord(
  env: ActionEnv,
  state: RunState,
  collection: Collection,
  values: Record<string, unknown>,
): void {
  const id = env.data.create(collection, values);
  const checked = checkFieldValues(collection.fields, values, { complete: true }).values;
  state.record = { id, collectionId: collection.id, values: checked, isOwn: true };
}

async function runStep(step: Step, env: ActionEnv, state: RunState): Promise<void> {
  const scope = () => templateScope(env.definition, state.record, env.input, env.user);
  const fill = (values: Record<string, string>) =>
    Object.fromEntries(Object.entries(values).map(([id, t]) => [id, renderTemplate(t, scope())]));
  switch (step.type) {
    case 'navigate': {
      const { screenId } = step.props;
      if (!screenId || !env.definition.screens.some((s) => s.id === screenId))
        throw new StepProblem(ACTION_MESSAGES.missingScreen);
      env.navigate(screenId, state.record?.id ?? null);
      return;
    }
    case 'back':
      env.back();
      return;
    case 'createRecord': {
      const collection = collectionOf(env.definition, step.props.collectionId);
      if (!collection) throw new StepProblem(ACTION_MESSAGES.missingCollection);
      createRecord(env, state, collection, fill(step.props.values));
      return;
    }
    case 'updateRecord':
      changeRecord(env, state, fill(step.props.values));
      return;
    case 'setField': {
      const { collection } = ownRecord(env, state);
      const fieldId = step.props.fieldId;
      if (!fieldId || !collection.fields.some((f) => f.id === fieldId))
        throw new StepProblem(ACTION_MESSAGES.missingField);
      changeRecord(env, state, { [fieldId]: renderTemplate(step.props.value, scope()) });
      return;
    }
    case 'deleteRecord': {
      const { record } = ownRecord(env, state);
      env.data.remove(record.id);
      state.record = null;
      return;
    }
    case 'openUrl': {
      const href = safeHref(step.props.url);
      if (href === null) throw new StepProblem(ACTION_MESSAGES.unsafeUrl);
      env.openUrl(href);
      return;
    }
    case 'toast': {
      const message = renderTemplate(step.props.message, scope()).trim();
      if (message) env.toast(message);
      return;
    }
    case 'runAi': {
      const ai = env.definition.aiActions.find((a) => a.id === step.props.aiActionId);
      if (!ai) throw new StepProblem(ACTION_MESSAGES.missingAi);
      const { runAiIn } = await aiStepsModule.load();
      const outcome = await runAiIn(ai, env, state);
      if (outcome.status === 'queued') throw new StepQueued(ACTION_MESSAGES.aiQueued);
      const text = outcome.text;
      // A component's answer is said here; a run that added a record says which one (its first
      // line: the rest is on the record's own card).
      const said =
        ai.target.kind === 'component'
          ? text.trim()
          : ai.target.kind === 'createRecord'
            ? (text.split('\n', 1)[0] ?? '')
            : '';
      if (said) {
        env.toast(said.length > TOAST_TEXT_LENGTH ? `${said.slice(0, TOAST_TEXT_LENGTH)}…` : said);
      }
      return;
    }
    default:
      // A step type this build does not know (a newer schema) stops the action like any problem.
      throw new StepProblem(ACTION_MESSAGES.unexpected);
  }
}

/**
 * Runs an action's steps in order (docs/product/app-definition.md). A step that cannot run — a
 * missing screen, a creator record, a refused value, an AI error — stops the action with a toast
 * that says why; nothing throws. After a createRecord step, later steps work on the new record.
 */
export async function runAction(
  action: Action | null | undefined,
  env: ActionEnv,
): Promise<ActionResult> {
  if (!action) {
    env.toast(ACTION_MESSAGES.missingAction);
    return { ok: false, completed: 0, problem: ACTION_MESSAGES.missingAction };
  }
  const state: RunState = { record: env.record };
  let completed = 0;
  for (const step of action.steps) {
    try {
      await runStep(step, env, state);
      completed += 1;
    } catch (error) {
      if (error instanceof StepQueued) {
        env.toast(error.message);
        return { ok: false, completed, problem: error.message, queued: true };
      }
      const problem = problemOf(error);
      if (error instanceof StepProblem && error.link) env.toast(problem, error.link);
      else env.toast(problem);
      return { ok: false, completed, problem };
    }
  }
  return { ok: true, completed, problem: null };
}

/** What an AI component shows after asking for a run. */
export type AiComponentOutcome =
  | { status: 'done'; text: string }
  | { status: 'queued'; runId: string }
  | { status: 'failed'; problem: string; link?: ToastLink };

/** Runs an AI action for an AI component: its text, a queued run, or the problem (never throws). */
export async function runAiAction(
  aiActionId: string | null,
  env: ActionEnv,
): Promise<AiComponentOutcome> {
  const ai = env.definition.aiActions.find((a) => a.id === aiActionId);
  if (!ai) return { status: 'failed', problem: ACTION_MESSAGES.missingAi };
  try {
    const { runAiIn } = await aiStepsModule.load();
    return await runAiIn(ai, env, { record: env.record });
  } catch (error) {
    const link = error instanceof StepProblem ? error.link : undefined;
    return { status: 'failed', problem: problemOf(error), ...(link ? { link } : {}) };
  }
}

import {
  type Action,
  type AiAction,
  checkFieldValues,
  type Collection,
  DefinitionError,
  type FieldValue,
  type ReadDefinition,
  renderTemplate,
  type Step,
  type TemplateScope,
} from '@pipit/app-definition';
import type { RunAi, RuntimeData, RuntimeRecord, RuntimeUser } from './runtime-data';
import { safeHref } from './safe-url';

/** What a visitor reads when a step cannot run (the action stops there, the app goes on). */
export const ACTION_MESSAGES = {
  noAction: 'This button doesn’t do anything yet.',
  missingAction: 'This action no longer exists.',
  missingScreen: 'This leads to a screen that no longer exists.',
  missingCollection: 'This action adds to a collection that no longer exists.',
  noRecord: 'There’s no item here to change. Open one from a list first.',
  creatorRecord: 'This item is part of the app and can’t be changed.',
  missingField: 'This action changes a field that no longer exists.',
  unsafeUrl: 'This link can’t be opened: it isn’t a web address.',
  missingAi: 'This AI action no longer exists.',
  /** docs/product/app-definition.md, word for word. */
  aiNotConfigured: 'AI is not configured on this server',
  aiFailed: 'The AI action didn’t work. Try again later.',
  unexpected: 'Something went wrong, so the rest of this action was skipped. Try again.',
} as const;

/** A toast shows at most this much of an AI answer; the AI component shows all of it. */
const TOAST_TEXT_LENGTH = 300;

/** The values a form submitted, for `{{input.field}}`. */
export interface ActionInput {
  collection: Collection;
  values: Readonly<Record<string, FieldValue>>;
}

/** Everything an action may touch. The runtime builds one per run; tests build their own. */
export interface ActionEnv {
  definition: ReadDefinition;
  data: RuntimeData;
  /** The current screen's record, or null. */
  record: RuntimeRecord | null;
  input?: ActionInput | null;
  user: RuntimeUser | null;
  /** Opens a screen with a record (the action's current one), on top of the back stack. */
  navigate(screenId: string, recordId: string | null): void;
  back(): void;
  toast(message: string): void;
  /** Opens an address already checked by `safeHref`. */
  openUrl(href: string): void;
  runAi?: RunAi | undefined;
}

export interface ActionResult {
  ok: boolean;
  /** How many steps ran to the end. */
  completed: number;
  /** What stopped the action (also shown as a toast), or null. */
  problem: string | null;
}

/** A step that cannot run: its message is for the visitor. */
class StepProblem extends Error {}

function problemOf(error: unknown): string {
  if (error instanceof StepProblem || error instanceof DefinitionError) return error.message;
  return ACTION_MESSAGES.unexpected;
}

function collectionOf(definition: ReadDefinition, id: string | null): Collection | null {
  return definition.collections.find((c) => c.id === id) ?? null;
}

/** The scope `{{record.…}}`, `{{input.…}}` and `{{user.name}}` read from. */
export function templateScope(
  definition: ReadDefinition,
  record: RuntimeRecord | null,
  input: ActionInput | null | undefined,
  user: RuntimeUser | null,
): TemplateScope {
  return {
    record: record
      ? {
          fields: collectionOf(definition, record.collectionId)?.fields ?? [],
          values: record.values,
        }
      : null,
    input: input ? { fields: input.collection.fields, values: input.values } : null,
    user,
  };
}

interface RunState {
  /** The record the steps work on: the screen's, then the one a createRecord step made. */
  record: RuntimeRecord | null;
}

/** The current record and its collection, when the visitor may change it. */
function ownRecord(
  env: ActionEnv,
  state: RunState,
): { record: RuntimeRecord; collection: Collection } {
  const record = state.record;
  if (!record) throw new StepProblem(ACTION_MESSAGES.noRecord);
  if (!record.isOwn) throw new StepProblem(ACTION_MESSAGES.creatorRecord);
  const collection = collectionOf(env.definition, record.collectionId);
  if (!collection) throw new StepProblem(ACTION_MESSAGES.noRecord);
  return { record, collection };
}

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

/** An AI answer as record values: a JSON object by field id or name, else the first text field. */
function aiRecordValues(collection: Collection, text: string, asRecord: boolean) {
  if (asRecord) {
    try {
      const json = JSON.parse(text.replace(/^\s*```(?:json)?\s*|\s*```\s*$/g, '')) as unknown;
      if (json && typeof json === 'object' && !Array.isArray(json)) {
        const values: Record<string, unknown> = {};
        for (const [key, value] of Object.entries(json)) {
          const wanted = key.trim().toLowerCase();
          const field = collection.fields.find(
            (f) => f.id === key || f.name.trim().toLowerCase() === wanted,
          );
          if (field) values[field.id] = value;
        }
        return values;
      }
    } catch {
      // Not JSON: the text goes into the first text field below.
    }
  }
  const textField = collection.fields.find((f) => f.type === 'text' || f.type === 'longText');
  return textField ? { [textField.id]: text } : {};
}

/**
 * Runs an AI action: fills in its prompt, asks the server (`env.runAi`), and puts the answer where
 * the AI action says (a field of the current record, or a new record). Returns the answer's text;
 * throws a StepProblem with a message for the visitor when it cannot run.
 */
async function runAiIn(ai: AiAction, env: ActionEnv, state: RunState): Promise<string> {
  if (!env.runAi) throw new StepProblem(ACTION_MESSAGES.aiNotConfigured);
  const scope = templateScope(env.definition, state.record, env.input, env.user);
  let text: string;
  try {
    text = await env.runAi(ai.id, {
      prompt: renderTemplate(ai.prompt, scope),
      record: state.record?.values ?? null,
      input: env.input?.values ?? null,
      user: env.user,
    });
  } catch (error) {
    throw new StepProblem(
      error instanceof Error && error.message ? error.message : ACTION_MESSAGES.aiFailed,
    );
  }
  if (ai.target.kind === 'field') {
    const fieldId = ai.target.fieldId;
    if (!fieldId) throw new StepProblem(ACTION_MESSAGES.missingField);
    changeRecord(env, state, { [fieldId]: text });
  } else if (ai.target.kind === 'createRecord') {
    const collection = collectionOf(env.definition, ai.target.collectionId);
    if (!collection) throw new StepProblem(ACTION_MESSAGES.missingCollection);
    createRecord(
      env,
      state,
      collection,
      aiRecordValues(collection, text, ai.output.kind === 'record'),
    );
  }
  return text;
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
      const text = await runAiIn(ai, env, state);
      if (ai.target.kind === 'component' && text.trim()) {
        env.toast(text.length > TOAST_TEXT_LENGTH ? `${text.slice(0, TOAST_TEXT_LENGTH)}…` : text);
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
      const problem = problemOf(error);
      env.toast(problem);
      return { ok: false, completed, problem };
    }
  }
  return { ok: true, completed, problem: null };
}

/**
 * Runs an AI action for an AI component: the answer's text, or the problem to show instead (never
 * throws).
 */
export async function runAiAction(
  aiActionId: string | null,
  env: ActionEnv,
): Promise<{ ok: true; text: string } | { ok: false; problem: string }> {
  const ai = env.definition.aiActions.find((a) => a.id === aiActionId);
  if (!ai) return { ok: false, problem: ACTION_MESSAGES.missingAi };
  try {
    return { ok: true, text: await runAiIn(ai, env, { record: env.record }) };
  } catch (error) {
    return { ok: false, problem: problemOf(error) };
  }
}

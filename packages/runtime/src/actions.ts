import {
  type Action,
  type AiAction,
  checkFieldValues,
  type Collection,
  DefinitionError,
  type FieldValue,
  type ReadDefinition,
  renderTemplate,
  resolveExpression,
  type Step,
  templateBindings,
  type TemplateScope,
} from '@pipit/app-definition';
import type { AiOutput, RunAi, RuntimeData, RuntimeRecord, RuntimeUser } from './runtime-data';
import { formatValue, isEmpty } from './records';
import { safeHref } from './safe-url';

/** What a visitor reads when a step cannot run (the action stops there, the app goes on). */
export const ACTION_MESSAGES = {
  noAction: 'This button doesn’t do anything yet.',
  missingAction: 'This action no longer exists.',
  missingScreen: 'This leads to a screen that no longer exists.',
  missingCollection: 'This action adds to a collection that no longer exists.',
  noRecord: 'There’s no item here to change. Open one from a list first.',
  creatorRecord: 'This item is part of the app and can’t be changed.',
  authorRecord: 'Only the person who added this item can change it.',
  missingField: 'This action changes a field that no longer exists.',
  unsafeUrl: 'This link can’t be opened: it isn’t a web address.',
  missingAi: 'This AI action no longer exists.',
  /** docs/product/app-definition.md, word for word. */
  aiNotConfigured: 'AI is not configured on this server',
  aiFailed: 'The AI action didn’t work. Try again later.',
  aiSignIn: 'Sign in to use AI in this app.',
  aiQueued: 'You’re offline. The AI run is queued and will run when you’re back online.',
  aiTooLong: 'A value in this AI action is too long to send (at most 4,000 characters).',
  aiNoText: 'The AI’s answer has no text for this field, so nothing was saved.',
  unexpected: 'Something went wrong, so the rest of this action was skipped. Try again.',
} as const;

/** Why a record the visitor sees cannot be changed: the app's own, or another member's. */
export function lockedMessage(record: Pick<RuntimeRecord, 'locked' | 'lockedWhy'>): string {
  if (record.lockedWhy) return record.lockedWhy;
  return record.locked === 'author' ? ACTION_MESSAGES.authorRecord : ACTION_MESSAGES.creatorRecord;
}

/** Longest value one binding may carry (the server refuses longer: AI_BINDING_MAX_LENGTH). */
const BINDING_MAX_LENGTH = 4_000;

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
  /** Shows a message; `link` (already safe: a path on the site) goes under it. */
  toast(message: string, link?: ToastLink): void;
  /** Opens an address already checked by `safeHref`. */
  openUrl(href: string): void;
  runAi?: RunAi | undefined;
  /** Set when the visitor must sign in before AI runs: where to sign in. */
  aiSignInHref?: string | null | undefined;
}

/** A link under a toast (sign in to use AI). */
export interface ToastLink {
  href: string;
  label: string;
}

export interface ActionResult {
  ok: boolean;
  /** How many steps ran to the end. */
  completed: number;
  /** What stopped the action (also shown as a toast), or null. */
  problem: string | null;
  /** An AI run waits on the device (offline): the steps after it were not run. */
  queued?: boolean;
}

/** A step that cannot run: its message is for the visitor. */
class StepProblem extends Error {
  constructor(
    message: string,
    readonly link?: ToastLink,
  ) {
    super(message);
  }
}

/** A run-AI step whose run waits on the device: the action stops there, and says so. */
class StepQueued extends Error {}

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
  if (!record.isOwn) throw new StepProblem(lockedMessage(record));
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

/** What an AI output reads as text (an AI component, a toast, a text field). */
export function aiOutputText(output: AiOutput, collection: Collection | null = null): string {
  if (output.kind === 'text') return output.text;
  const lines: string[] = [];
  for (const [fieldId, value] of Object.entries(output.values)) {
    if (value === null || value === '') continue;
    const field = collection?.fields.find((f) => f.id === fieldId) ?? null;
    // As the record's own card says it ("No", "1,200"), never the raw value ("false").
    lines.push(`${field?.name ?? fieldId}: ${formatValue(value, field)}`);
  }
  return lines.join('\n');
}

/** What a run that added a record says first: which one, and where ("Added “Dune” to Books."). */
function addedText(collection: Collection, values: Readonly<Record<string, FieldValue>>): string {
  const titleField = collection.fields.find((f) => f.type === 'text' && !isEmpty(values[f.id]));
  const title = titleField ? String(values[titleField.id]) : '';
  return title
    ? `Added “${title}” to ${collection.name}.`
    : `Added a new item to ${collection.name}.`;
}

/**
 * The value of each binding the AI action's template uses, over the current record, the form's
 * input and the visitor: all a run sends (the server builds the prompt from its own copy).
 */
export function aiBindings(ai: AiAction, scope: TemplateScope): Record<string, string> {
  const bindings: Record<string, string> = {};
  for (const name of templateBindings(ai.prompt)) {
    const value = resolveExpression(name, scope);
    if (value.length > BINDING_MAX_LENGTH) throw new StepProblem(ACTION_MESSAGES.aiTooLong);
    bindings[name] = value;
  }
  return bindings;
}

/** A value the collection refused, said as an AI answer that saved nothing. */
function refusedOutput(error: unknown): StepProblem {
  const detail = error instanceof DefinitionError ? ` ${error.message}` : '';
  return new StepProblem(`The AI’s answer didn’t fit.${detail} Nothing was saved.`);
}

/**
 * Puts a run's output where the AI action's target says: nothing to store (an AI component), a
 * field of `record` (checked like the set-field step), or a new record in the collection (checked
 * like a hand-made one; a refused value saves nothing). Returns the text to show and the record
 * later steps work on; throws a StepProblem with a message for the visitor.
 */
function landOutput(
  definition: ReadDefinition,
  data: RuntimeData,
  ai: AiAction,
  output: AiOutput,
  record: RuntimeRecord | null,
): { text: string; record: RuntimeRecord | null } {
  const target = ai.target;
  if (target.kind === 'field') {
    if (!record) throw new StepProblem(ACTION_MESSAGES.noRecord);
    if (!record.isOwn) throw new StepProblem(lockedMessage(record));
    const collection = collectionOf(definition, record.collectionId);
    if (!collection) throw new StepProblem(ACTION_MESSAGES.noRecord);
    const fieldId = target.fieldId;
    if (!fieldId || !collection.fields.some((f) => f.id === fieldId))
      throw new StepProblem(ACTION_MESSAGES.missingField);
    const value = output.kind === 'text' ? output.text : output.values[fieldId];
    if (value === undefined) throw new StepProblem(ACTION_MESSAGES.aiNoText);
    try {
      data.update(collection, record.id, { [fieldId]: value });
    } catch (error) {
      throw refusedOutput(error);
    }
    const checked = checkFieldValues(collection.fields, { [fieldId]: value }, { complete: false });
    return {
      text: aiOutputText(output, collection),
      record: { ...record, values: { ...record.values, ...checked.values } },
    };
  }
  if (target.kind === 'createRecord') {
    const collection = collectionOf(definition, target.collectionId);
    if (!collection) throw new StepProblem(ACTION_MESSAGES.missingCollection);
    const values = recordValues(collection, output);
    let id: string;
    try {
      id = data.create(collection, values);
    } catch (error) {
      throw refusedOutput(error);
    }
    const checked = checkFieldValues(collection.fields, values, { complete: true }).values;
    const details = aiOutputText(output, collection);
    return {
      text: [addedText(collection, checked), details].filter(Boolean).join('\n'),
      record: { id, collectionId: collection.id, values: checked, isOwn: true },
    };
  }
  return { text: aiOutputText(output, collectionOf(definition, outputCollectionId(ai))), record };
}

function outputCollectionId(ai: AiAction): string | null {
  return ai.output.kind === 'record' ? ai.output.collectionId : null;
}

/** A record output's values for the collection's own fields; a text output fills the first text field. */
function recordValues(collection: Collection, output: AiOutput): Record<string, unknown> {
  if (output.kind === 'record') {
    const values: Record<string, unknown> = {};
    for (const field of collection.fields) {
      if (Object.hasOwn(output.values, field.id)) values[field.id] = output.values[field.id];
    }
    return values;
  }
  const textField = collection.fields.find((f) => f.type === 'text' || f.type === 'longText');
  return textField ? { [textField.id]: output.text } : {};
}

/**
 * Lands the output of a run that waited on the device (offline) once it has run: into the record
 * the run was asked for (found by id in the visitor's own data) or a new record. Never throws.
 */
export function landAiOutput(
  definition: ReadDefinition,
  data: RuntimeData,
  aiActionId: string,
  recordId: string | null,
  output: AiOutput,
): { ok: true; text: string } | { ok: false; problem: string } {
  const ai = definition.aiActions.find((a) => a.id === aiActionId);
  if (!ai) return { ok: false, problem: ACTION_MESSAGES.missingAi };
  const own = data.records.find((r) => r.id === recordId);
  const record: RuntimeRecord | null = own
    ? { id: own.id, collectionId: own.collectionId, values: own.values, isOwn: true }
    : null;
  try {
    return { ok: true, text: landOutput(definition, data, ai, output, record).text };
  } catch (error) {
    return { ok: false, problem: problemOf(error) };
  }
}

type AiStepOutcome = { status: 'done'; text: string } | { status: 'queued'; runId: string };

/**
 * Runs an AI action: computes the values of the bindings its template uses, asks the host
 * (`env.runAi`, which asks the server), and puts the typed output where the AI action says. Throws
 * a StepProblem with a message for the visitor when it cannot run.
 */
async function runAiIn(ai: AiAction, env: ActionEnv, state: RunState): Promise<AiStepOutcome> {
  if (!env.runAi) throw new StepProblem(ACTION_MESSAGES.aiNotConfigured);
  if (env.aiSignInHref)
    throw new StepProblem(ACTION_MESSAGES.aiSignIn, { href: env.aiSignInHref, label: 'Sign in' });
  // A field target needs a record the visitor may change: say so before anything is sent.
  if (ai.target.kind === 'field') ownRecord(env, state);
  const scope = templateScope(env.definition, state.record, env.input, env.user);
  const bindings = aiBindings(ai, scope);
  let answer;
  try {
    answer = await env.runAi({ aiActionId: ai.id, bindings, recordId: state.record?.id ?? null });
  } catch (error) {
    throw new StepProblem(
      error instanceof Error && error.message ? error.message : ACTION_MESSAGES.aiFailed,
    );
  }
  if (answer.status === 'queued') return answer;
  const landed = landOutput(env.definition, env.data, ai, answer.output, state.record);
  state.record = landed.record;
  return { status: 'done', text: landed.text };
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
    return await runAiIn(ai, env, { record: env.record });
  } catch (error) {
    const link = error instanceof StepProblem ? error.link : undefined;
    return { status: 'failed', problem: problemOf(error), ...(link ? { link } : {}) };
  }
}

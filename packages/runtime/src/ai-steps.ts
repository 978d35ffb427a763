import {
  type AiAction,
  checkFieldValues,
  type Collection,
  DefinitionError,
  type FieldValue,
  type ReadDefinition,
  resolveExpression,
  templateBindings,
  type TemplateScope,
} from '@pipit/app-definition';
import {
  ACTION_MESSAGES,
  type ActionEnv,
  collectionOf,
  lockedMessage,
  ownRecord,
  problemOf,
  type RunState,
  StepProblem,
  templateScope,
} from './action-core';
import type { AiOutput, RuntimeData, RuntimeRecord } from './runtime-data';
import { formatValue, isEmpty } from './records';

/*
 * An action's AI steps: what a run sends and where its answer lands. A part of its own (parts.ts),
 * loaded ahead for an app with AI actions only (`preloadRuntimeParts`); actions.ts loads it when a
 * step or an AI component runs one.
 */

/** Longest value one binding may carry (the server refuses longer: AI_BINDING_MAX_LENGTH). */
const BINDING_MAX_LENGTH = 4_000;

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

export type AiStepOutcome = { status: 'done'; text: string } | { status: 'queued'; runId: string };

/**
 * Runs an AI action: computes the values of the bindings its template uses, asks the host
 * (`env.runAi`, which asks the server), and puts the typed output where the AI action says. Throws
 * a StepProblem with a message for the visitor when it cannot run.
 */
export async function runAiIn(
  ai: AiAction,
  env: ActionEnv,
  state: RunState,
): Promise<AiStepOutcome> {
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

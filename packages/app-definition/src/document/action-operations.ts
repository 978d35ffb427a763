import * as Y from 'yjs';
import { type AiAction, aiActionSchema, STEP_PROPS, type StepType } from '../schema/definition';
import { ordered, plainMap, table } from './document';
import { DefinitionError } from '../schema/edit-rules';
import { LIMITS } from '../schema/limits';
import { type Reminder, reminderSchema } from '../schema/reminder';
import type { z } from 'zod';

import { edit, type IdFactory, insert, limit, move, need, removeChildren } from './edit-primitives';

/*
 * The typed edits of an app's actions and their steps, its AI actions and its reminders: the parts
 * of the definition that do things rather than show them (operations.ts has the rest).
 */

// Actions and steps

export function addAction(doc: Y.Doc, newId: IdFactory, name = 'New action'): string {
  return edit(doc, () => {
    limit(
      table(doc, 'actions').size,
      LIMITS.actions,
      `An app can have at most ${LIMITS.actions} actions.`,
    );
    return insert(doc, 'actions', newId(), { name }, undefined, Infinity);
  });
}

export function renameAction(doc: Y.Doc, actionId: string, name: string): void {
  edit(doc, () => need(doc, 'actions', actionId, 'action').set('name', name));
}

export function removeAction(doc: Y.Doc, actionId: string): void {
  edit(doc, () => {
    need(doc, 'actions', actionId, 'action');
    removeChildren(doc, 'steps', actionId);
    table(doc, 'actions').delete(actionId);
  });
}

export function addStep(
  doc: Y.Doc,
  newId: IdFactory,
  actionId: string,
  type: StepType,
  index = Infinity,
  props: Record<string, unknown> = {},
): string {
  return edit(doc, () => {
    need(doc, 'actions', actionId, 'action');
    limit(
      ordered(doc, 'steps', actionId).length,
      LIMITS.stepsPerAction,
      `An action can have at most ${LIMITS.stepsPerAction} steps.`,
    );
    const values = STEP_PROPS[type].parse(props);
    return insert(
      doc,
      'steps',
      newId(),
      { type, actionId, props: plainMap(values) },
      actionId,
      index,
    );
  });
}

export function setStepProps(doc: Y.Doc, stepId: string, patch: Record<string, unknown>): void {
  edit(doc, () => {
    const step = need(doc, 'steps', stepId, 'step');
    const type = step.get('type') as StepType;
    const shape = STEP_PROPS[type].shape as Record<string, { parse(v: unknown): unknown }>;
    let props = step.get('props');
    if (!(props instanceof Y.Map)) {
      props = new Y.Map<unknown>();
      step.set('props', props);
    }
    for (const [key, value] of Object.entries(patch)) {
      const field = shape[key];
      if (!field) throw new DefinitionError(`A ${type} step has no “${key}”.`);
      (props as Y.Map<unknown>).set(key, JSON.parse(JSON.stringify(field.parse(value))) as unknown);
    }
  });
}

export function moveStep(doc: Y.Doc, stepId: string, index: number): void {
  edit(doc, () => move(doc, 'steps', stepId, index));
}

export function removeStep(doc: Y.Doc, stepId: string): void {
  edit(doc, () => {
    need(doc, 'steps', stepId, 'step');
    table(doc, 'steps').delete(stepId);
  });
}

// AI actions

export function addAiAction(doc: Y.Doc, newId: IdFactory, name = 'New AI action'): string {
  return edit(doc, () => {
    limit(
      table(doc, 'aiActions').size,
      LIMITS.aiActions,
      `An app can have at most ${LIMITS.aiActions} AI actions.`,
    );
    const values = aiActionSchema.parse({ id: 'new', name });
    return insert(
      doc,
      'aiActions',
      newId(),
      { name: values.name, prompt: values.prompt, output: values.output, target: values.target },
      undefined,
      Infinity,
    );
  });
}

export function setAiAction(
  doc: Y.Doc,
  aiActionId: string,
  patch: Partial<Pick<AiAction, 'name' | 'prompt' | 'output' | 'target'>>,
): void {
  edit(doc, () => {
    const entity = need(doc, 'aiActions', aiActionId, 'AI action');
    const shape = aiActionSchema.shape;
    for (const [key, value] of Object.entries(patch) as Array<[keyof typeof patch, unknown]>) {
      if (value === undefined) continue;
      entity.set(key, JSON.parse(JSON.stringify(shape[key].parse(value))) as unknown);
    }
  });
}

export function removeAiAction(doc: Y.Doc, aiActionId: string): void {
  edit(doc, () => {
    need(doc, 'aiActions', aiActionId, 'AI action');
    table(doc, 'aiActions').delete(aiActionId);
  });
}

// Reminders

/** What a new reminder starts as when the creator gives nothing else: every day at 20:00. */
const NEW_REMINDER = {
  title: 'Reminder',
  body: '',
  schedule: { kind: 'weekly', days: [1, 2, 3, 4, 5, 6, 7], time: '20:00' },
} as const;

/** Adds a reminder at the end; `values` is checked whole, so a bad schedule is a clear error. */
export function addReminder(
  doc: Y.Doc,
  newId: IdFactory,
  values: Partial<Pick<Reminder, 'title' | 'body' | 'schedule'>> = {},
): string {
  return edit(doc, () => {
    limit(
      table(doc, 'reminders').size,
      LIMITS.reminders,
      `An app can have at most ${LIMITS.reminders} reminders.`,
    );
    const parsed = reminderSchema.safeParse({ ...NEW_REMINDER, ...values, id: 'new' });
    if (!parsed.success) throw new DefinitionError(firstMessage(parsed.error));
    const { id: _id, ...reminder } = parsed.data;
    return insert(doc, 'reminders', newId(), plainCopy(reminder), undefined, Infinity);
  });
}

/**
 * Sets some of a reminder's properties, each checked on its own. The schedule is one value: its
 * parts only make sense together (a record's field only with that record's collection), so two
 * people editing it at once keep one whole schedule, never a mix of both.
 */
export function setReminder(
  doc: Y.Doc,
  reminderId: string,
  patch: Partial<Pick<Reminder, 'title' | 'body' | 'schedule'>>,
): void {
  edit(doc, () => {
    const entity = need(doc, 'reminders', reminderId, 'reminder');
    const shape = reminderSchema.shape;
    for (const [key, value] of Object.entries(patch) as Array<[keyof typeof patch, unknown]>) {
      if (value === undefined) continue;
      if (!Object.hasOwn(REMINDER_PROPERTIES, key))
        throw new DefinitionError(`A reminder has no “${key}”.`);
      const parsed = shape[key].safeParse(value);
      if (!parsed.success) throw new DefinitionError(firstMessage(parsed.error));
      entity.set(key, plainCopy(parsed.data));
    }
  });
}

const REMINDER_PROPERTIES = { title: true, body: true, schedule: true } as const;

export function moveReminder(doc: Y.Doc, reminderId: string, index: number): void {
  edit(doc, () => move(doc, 'reminders', reminderId, index));
}

export function removeReminder(doc: Y.Doc, reminderId: string): void {
  edit(doc, () => {
    need(doc, 'reminders', reminderId, 'reminder');
    table(doc, 'reminders').delete(reminderId);
  });
}

function firstMessage(error: z.ZodError): string {
  return error.issues[0]?.message ?? 'This reminder is not valid.';
}

const plainCopy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

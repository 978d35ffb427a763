import {
  type Collection,
  DefinitionError,
  type FieldValue,
  type ReadDefinition,
  type TemplateScope,
} from '@pipit/app-definition';
import type { RunAi, RuntimeData, RuntimeRecord, RuntimeUser } from './runtime-data';

/*
 * What an action's steps share (actions.ts) with its AI steps (ai-steps.ts, a part of its own that
 * only apps with AI actions load): the visitor's messages, what an action may touch, and the
 * record the steps work on. A module apart, so the AI steps import it and not the actions that
 * load them.
 */

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
export class StepProblem extends Error {
  constructor(
    message: string,
    readonly link?: ToastLink,
  ) {
    super(message);
  }
}

export function problemOf(error: unknown): string {
  if (error instanceof StepProblem || error instanceof DefinitionError) return error.message;
  return ACTION_MESSAGES.unexpected;
}

export function collectionOf(definition: ReadDefinition, id: string | null): Collection | null {
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

export interface RunState {
  /** The record the steps work on: the screen's, then the one a createRecord step made. */
  record: RuntimeRecord | null;
}

/** The current record and its collection, when the visitor may change it. */
export function ownRecord(
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

import {
  type AiRunOutput,
  type AiRunSource,
  aiRunResponseSchema,
  type AiStatus,
  aiStatusSchema,
} from '@pipit/protocol';
import type { AiRunAsk, RunAi } from '@pipit/runtime';
import { useEffect, useState, useSyncExternalStore } from 'react';
import type { AiRunSent } from '../../sync/app-document/ai-queue';
import { ApiRequestError, apiGet, apiSend, OfflineError } from '../api/request';

/*
 * AI actions as the client runs them (docs/product/ai.md, /docs/ai-actions): the server's status
 * (`GET /api/ai/status`, the last answer kept for offline) and runs (`POST /api/ai/runs`, which
 * get only the values of the bindings the template uses: the server builds the prompt).
 */

/** The words for each AI error, as /docs/ai-actions lists them. */
export const AI_ERROR_MESSAGES = {
  notConfigured: 'AI is not configured on this server',
  quota: 'You have used all of today’s AI runs. They start again tomorrow.',
  outputInvalid: 'The AI’s answer didn’t fit, so nothing was saved. Try again.',
  providerFailed: 'The AI provider didn’t answer, so nothing was saved. Try again later.',
  signIn: 'Sign in to use AI in this app.',
  offline: 'You’re offline. AI needs a connection: try again when you’re back online.',
  failed: 'The AI action didn’t work. Try again later.',
} as const;

/** What to tell a person about a failed run. */
export function aiErrorMessage(error: unknown): string {
  if (error instanceof OfflineError) return AI_ERROR_MESSAGES.offline;
  if (!(error instanceof ApiRequestError)) return AI_ERROR_MESSAGES.failed;
  switch (error.code) {
    case 'ai_not_configured':
      return AI_ERROR_MESSAGES.notConfigured;
    case 'ai_quota_exceeded':
      // The server's words say how many runs a day and when more come.
      return error.message || AI_ERROR_MESSAGES.quota;
    // The server words each of these for what went wrong (its AI settings, a timeout, an answer
    // that did not fit): those words say whether to try again or tell the operator.
    case 'ai_output_invalid':
      return error.message || AI_ERROR_MESSAGES.outputInvalid;
    case 'ai_provider_failed':
      return error.message || AI_ERROR_MESSAGES.providerFailed;
    case 'unauthenticated':
      return AI_ERROR_MESSAGES.signIn;
    case 'internal':
      return error.digest
        ? `${AI_ERROR_MESSAGES.failed} (digest ${error.digest})`
        : AI_ERROR_MESSAGES.failed;
    default:
      return error.message || AI_ERROR_MESSAGES.failed;
  }
}

/** One run on the server: its output; throws OfflineError or ApiRequestError. */
export async function sendAiRun(
  appId: string,
  ask: Pick<AiRunAsk, 'aiActionId' | 'bindings'>,
  source: AiRunSource = 'published',
): Promise<AiRunOutput> {
  const response = await apiSend(
    'POST',
    '/api/ai/runs',
    { appId, aiActionId: ask.aiActionId, source, bindings: ask.bindings },
    aiRunResponseSchema,
  );
  setRemaining(response.remaining);
  return response.output;
}

/**
 * A run from the device's queue (ai-queue.ts), sent: what it came to. The server out of reach, an
 * expired session or too many requests leave it queued for a later pass; any other refusal fails
 * it, with the words to show.
 */
export async function sendQueuedAiRun(
  appId: string,
  run: Pick<AiRunAsk, 'aiActionId' | 'bindings'>,
): Promise<AiRunSent<AiRunOutput>> {
  try {
    return { status: 'done', output: await sendAiRun(appId, run) };
  } catch (error) {
    if (
      error instanceof OfflineError ||
      (error instanceof ApiRequestError &&
        (error.code === 'unauthenticated' || error.code === 'rate_limited'))
    ) {
      return { status: 'later' };
    }
    return { status: 'failed', problem: aiErrorMessage(error) };
  }
}

/**
 * The host's RunAi for an app run with the person's own data: online, the output now; offline (or
 * the server unreachable), the run goes to the device's queue (`queue`) and lands later. A refused
 * run rejects with the words to show.
 */
export function createRunAi({
  appId,
  queue,
}: {
  appId: string;
  /** Keeps the run on the device (null: no queue here, offline says so). */
  queue: ((ask: AiRunAsk) => Promise<{ id: string }>) | null;
}): RunAi {
  return async (ask) => {
    const queueIt = async () => {
      if (!queue) throw new Error(AI_ERROR_MESSAGES.offline);
      return { status: 'queued' as const, runId: (await queue(ask)).id };
    };
    if (!navigator.onLine) return queueIt();
    try {
      return { status: 'done', output: await sendAiRun(appId, ask) };
    } catch (error) {
      if (error instanceof OfflineError) return queueIt();
      throw new Error(aiErrorMessage(error), { cause: error });
    }
  };
}

/** The server's AI status as last seen (on this device, for offline), without `remaining`. */
const STATUS_KEY = 'pipit:ai-status';
type KnownStatus = Pick<AiStatus, 'available' | 'model' | 'dailyRuns'> & {
  remaining: number | null;
};

function readStored(): KnownStatus | null {
  try {
    const value = JSON.parse(localStorage.getItem(STATUS_KEY) ?? 'null') as unknown;
    const parsed = aiStatusSchema.safeParse(value ? { ...value, remaining: null } : null);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

let known: KnownStatus | null | undefined;
let loading: Promise<void> | undefined;
/** The last ask never reached the server (offline, or the server out of reach). */
let unreachable = false;
const listeners = new Set<() => void>();

function setKnown(next: KnownStatus | null) {
  known = next;
  listeners.forEach((l) => l());
}

function setUnreachable(next: boolean) {
  if (unreachable === next) return;
  unreachable = next;
  listeners.forEach((l) => l());
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => void listeners.delete(l);
};

function setRemaining(remaining: number) {
  if (known) setKnown({ ...known, remaining });
}

/** Asks the server again (after sign-in or out, when online again); offline keeps the last known. */
export function refreshAiStatus(): Promise<void> {
  loading ??= apiGet('/api/ai/status', aiStatusSchema)
    .then((status) => {
      const { remaining: _remaining, ...kept } = status;
      try {
        localStorage.setItem(STATUS_KEY, JSON.stringify(kept));
      } catch {
        // A full or blocked storage only costs the offline copy.
      }
      setUnreachable(false);
      setKnown(status);
    })
    .catch((error: unknown) => {
      setUnreachable(error instanceof OfflineError);
      if (!(error instanceof OfflineError)) console.warn('Could not read the AI status:', error);
    })
    .finally(() => {
      loading = undefined;
    });
  return loading;
}

/**
 * The server's AI status: the last known at once (null before the first answer on this device),
 * the server's answer when it comes. `key` (the account id) asks again when the person changes;
 * with `enabled` false (an app without AI actions) nothing is asked.
 */
export function useAiStatus(key: string | null = null, enabled = true): KnownStatus | null {
  const status = useSyncExternalStore(
    subscribe,
    () => (known === undefined ? (known = readStored()) : known),
    // A page rendered on the server knows no status: neither does the browser's first render.
    () => null,
  );
  useEffect(() => {
    if (!enabled) return;
    void refreshAiStatus();
    const again = () => void refreshAiStatus();
    window.addEventListener('online', again);
    return () => window.removeEventListener('online', again);
  }, [key, enabled]);
  return status;
}

/**
 * Whether this server has an AI provider, for pages that offer AI to its editors (/create, /demo,
 * Ask AI): null while the first answer is on its way; 'offline' when this device never got an
 * answer and cannot ask now (the page says AI needs a connection, not that there is none); with no
 * answer otherwise (an older server), false, so the page says AI is not configured and offers what
 * works without it.
 */
export function useAiAvailable(): boolean | 'offline' | null {
  const status = useAiStatus();
  const offline = useSyncExternalStore(
    subscribe,
    () => unreachable,
    () => false,
  );
  const [asked, setAsked] = useState(false);
  useEffect(() => {
    let live = true;
    // The same request useAiStatus starts (refreshAiStatus shares one at a time).
    void refreshAiStatus().then(() => live && setAsked(true));
    return () => {
      live = false;
    };
  }, []);
  if (status) return status.available;
  if (!asked) return null;
  return offline ? 'offline' : false;
}

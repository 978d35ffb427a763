import type { ReadDefinition } from '@pipit/app-definition';
import type { AiRunOutput } from '@pipit/protocol';
import { type AiRunView, landAiOutput, type RunAi, type RuntimeData } from '@pipit/runtime';
import { useEffect, useMemo, useRef, useState } from 'react';
import {
  aiErrorMessage,
  createRunAi,
  sendQueuedAiRun,
  useAiStatus,
} from '../../platform/ai/ai-runs';

export interface AiHost {
  /** Absent when the server has no provider: the app says "AI is not configured on this server". */
  runAi: RunAi | undefined;
  /** Where someone not signed in signs in first. */
  aiSignInHref: string | null;
  /** This person's runs kept on the device for this app (queued offline), oldest first. */
  aiRuns: AiRunView[];
  dismiss(runId: string): void;
}

/** The queue lives in IndexedDB: loaded only when a signed-in person runs an app with AI. */
const loadQueue = () => import('../../sync/app-document/ai-queue');

/**
 * AI for an app run with the person's own data (`/apps/{id}/pwa`): runs on the server, a queue on
 * the device for runs asked offline (tied to the account; it runs on reconnect, also after the app
 * was closed, and lands in the visitor's data), and a sign-in link for someone not signed in.
 */
export function useAiHost({
  appId,
  accountId,
  definition,
  data,
}: {
  appId: string;
  accountId: string | null;
  definition: ReadDefinition;
  /** The visitor's data once open (null while it opens): where queued runs land. */
  data: RuntimeData | null;
}): AiHost {
  const usesAi = definition.aiActions.length > 0;
  const status = useAiStatus(accountId, usesAi);
  // Unknown on this device yet (first visit, offline): offer the run; the server says if it can't.
  const available = status?.available ?? true;
  const [runs, setRuns] = useState<AiRunView[]>([]);
  const latest = useRef({ definition, data, accountId });
  latest.current = { definition, data, accountId };
  const ready = data !== null;

  useEffect(() => {
    if (!accountId || !usesAi) {
      // The same empty list when it already is one: a new one would render the app again.
      setRuns((current) => (current.length === 0 ? current : []));
      return;
    }
    let stop: (() => void) | undefined;
    let closed = false;
    loadQueue()
      .then((queue) => {
        if (closed) return;
        const unwatch = queue.watchAiRuns(accountId, appId, setRuns);
        // Queued runs land in the visitor's data: run them only once it is open.
        const unrun = ready
          ? queue.runQueuedAiRunsWhenOnline<AiRunOutput>({
              owner: accountId,
              appId,
              // Over once this effect is; and at once if the page already renders someone else's
              // data or none (a render comes before this effect's cleanup).
              isActive: () =>
                !closed && latest.current.accountId === accountId && latest.current.data !== null,
              send: (run) => sendQueuedAiRun(appId, run),
              land: (run, output) => {
                const now = latest.current;
                if (!now.data) return { ok: false, problem: aiErrorMessage(null) };
                return landAiOutput(now.definition, now.data, run.aiActionId, run.recordId, output);
              },
            })
          : () => undefined;
        stop = () => {
          unwatch();
          unrun();
        };
      })
      .catch((error: unknown) => console.warn('Could not open the AI runs on this device:', error));
    return () => {
      closed = true;
      stop?.();
    };
  }, [accountId, appId, usesAi, ready]);

  const runsNow = useRef(runs);
  runsNow.current = runs;
  const runAi = useMemo(() => {
    if (!available) return undefined;
    const run = createRunAi({
      appId,
      queue: accountId
        ? async (ask) => (await loadQueue()).queueAiRun({ owner: accountId, appId, ...ask })
        : null,
    });
    const wrapped: RunAi = (ask) => {
      // A new run of an action on a record supersedes the finished ones kept here: an old "Done"
      // must not sit beside what this one says.
      if (accountId) {
        const old = runsNow.current.filter(
          (r) =>
            (r.state === 'done' || r.state === 'failed') &&
            r.aiActionId === ask.aiActionId &&
            r.recordId === ask.recordId,
        );
        if (old.length > 0) {
          void loadQueue().then((queue) => {
            for (const r of old) void queue.dismissAiRun(accountId, r.id);
          });
        }
      }
      return run(ask);
    };
    return wrapped;
  }, [available, appId, accountId]);

  return {
    runAi,
    aiSignInHref: accountId
      ? null
      : `/login?redirect=${encodeURIComponent(`${location.pathname}${location.search}`)}`,
    aiRuns: runs,
    dismiss: (runId) => {
      if (!accountId) return;
      void loadQueue().then((queue) => queue.dismissAiRun(accountId, runId));
    },
  };
}

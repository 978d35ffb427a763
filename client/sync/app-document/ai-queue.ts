import { liveQuery } from 'dexie';
import { createBackoff } from '../core/backoff';
import { type LocalAiRun, localDb } from '../core/local-db';

/*
 * AI runs asked for offline (docs/product/ai.md, /docs/ai-actions#offline): kept on this device in
 * IndexedDB, tied to the person who asked (another account on the device never runs or sees
 * them), run when the device is back online — also after the app was closed and opened again — and
 * landed in their target by whoever runs them. How each went stays until the person dismisses it.
 */

export type { LocalAiRun };

/** A finished run stays this long, so the person sees how it went; older ones are cleared. */
const KEEP_FINISHED_MS = 7 * 24 * 60 * 60 * 1000;
/** How often queued runs are tried while the device seems online (the server may have been down). */
const RETRY_MS = 30_000;
/**
 * After a pass the server could not take (unreachable right after the network came back, too many
 * requests at once), the next try comes this soon, then backs off to RETRY_MS: a device back
 * online should not wait half a minute for a blip.
 */
const SOON_MS = 2_000;
/** A run left `working` this long (the tab closed mid-run) is queued again. */
const STALE_WORKING_MS = 2 * 60 * 1000;

export interface AiRunToQueue {
  owner: string;
  appId: string;
  aiActionId: string;
  bindings: Record<string, string>;
  recordId: string | null;
}

export async function queueAiRun(run: AiRunToQueue, now = Date.now()): Promise<LocalAiRun> {
  const queued: LocalAiRun = {
    ...run,
    id: crypto.randomUUID(),
    state: 'queued',
    text: null,
    problem: null,
    queuedAt: now,
    updatedAt: now,
  };
  await localDb().aiRuns.add(queued);
  return queued;
}

/** One person's runs for one app, oldest first. */
export async function aiRunsOf(owner: string, appId: string): Promise<LocalAiRun[]> {
  const runs = await localDb().aiRuns.where('[owner+appId]').equals([owner, appId]).toArray();
  return runs.sort((a, b) => a.queuedAt - b.queuedAt || a.id.localeCompare(b.id));
}

/** Calls `onChange` with one person's runs for one app now and after every change. */
export function watchAiRuns(
  owner: string,
  appId: string,
  onChange: (runs: LocalAiRun[]) => void,
): () => void {
  const subscription = liveQuery(() => aiRunsOf(owner, appId)).subscribe({
    next: onChange,
    error: (error: unknown) => console.warn('Could not read the AI runs on this device:', error),
  });
  return () => subscription.unsubscribe();
}

/** Forgets a finished run (the person dismissed it); only its owner can. */
export async function dismissAiRun(owner: string, id: string): Promise<void> {
  await localDb()
    .aiRuns.filter((run) => run.id === id && run.owner === owner)
    .delete();
}

/** What sending one run to the server came to. */
export type AiRunSent<Output> =
  | { status: 'done'; output: Output }
  /**
   * Not now: the server could not be reached, the session expired (signing in again runs it) or
   * too many requests came at once. The run waits for the next pass.
   */
  | { status: 'later' }
  | { status: 'failed'; problem: string };

export interface RunQueuedOptions<Output> {
  owner: string;
  appId: string;
  send(run: LocalAiRun): Promise<AiRunSent<Output>>;
  /** Puts the output in its target (the visitor's data); the text to show, or why it failed. */
  land(
    run: LocalAiRun,
    output: Output,
  ): { ok: true; text: string } | { ok: false; problem: string };
  /**
   * Whether the pass is still wanted: false once its owner left (signed out, another account, the
   * app closed). Asked before each run is sent and right before its answer lands, so a pass that
   * outlives its page never sends with someone else's session or lands in someone else's data.
   */
  isActive?: () => boolean;
  now?: () => number;
}

/** Takes a queued run for this tab (queued → working in one transaction), or null if another did. */
async function claim(id: string, now: number): Promise<LocalAiRun | null> {
  const db = localDb();
  return db.transaction('rw', db.aiRuns, async () => {
    const run = await db.aiRuns.get(id);
    const stale = run?.state === 'working' && now - run.updatedAt > STALE_WORKING_MS;
    if (!run || (run.state !== 'queued' && !stale)) return null;
    const working: LocalAiRun = { ...run, state: 'working', updatedAt: now };
    await db.aiRuns.put(working);
    return working;
  });
}

const always = () => true;
const running = new Map<string, { pass: Promise<boolean>; isActive: () => boolean }>();

/**
 * Runs one person's queued runs for one app, oldest first, and lands each: stops at the first the
 * server cannot take now (it stays queued; the pass answers true). One pass per person and app at
 * a time in this tab; another tab cannot take the same run (see `claim`). A pass whose owner left
 * may still be finishing its last run: a new caller gets a pass of its own, after that one.
 */
export function runQueuedAiRuns<Output>(options: RunQueuedOptions<Output>): Promise<boolean> {
  const key = `${options.owner}:${options.appId}`;
  const previous = running.get(key);
  if (previous?.isActive()) return previous.pass;
  const pass: Promise<boolean> = (previous?.pass.catch(() => false) ?? Promise.resolve(false))
    .then(() => runPass(options))
    .finally(() => {
      if (running.get(key)?.pass === pass) running.delete(key);
    });
  running.set(key, { pass, isActive: options.isActive ?? always });
  return pass;
}

async function runPass<Output>({
  owner,
  appId,
  send,
  land,
  isActive = always,
  now = Date.now,
}: RunQueuedOptions<Output>): Promise<boolean> {
  const db = localDb();
  for (const queued of await aiRunsOf(owner, appId)) {
    if (!isActive()) return false;
    if (queued.state === 'done' || queued.state === 'failed') {
      if (now() - queued.updatedAt > KEEP_FINISHED_MS) await db.aiRuns.delete(queued.id);
      continue;
    }
    const run = await claim(queued.id, now());
    if (!run) continue;
    if (!isActive()) {
      await db.aiRuns.update(run.id, { state: 'queued', updatedAt: now() });
      return false;
    }
    let sent: AiRunSent<Output>;
    if (run.output !== undefined) {
      // Answered before, after its pass was over: it lands now, without running it again.
      sent = { status: 'done', output: run.output as Output };
    } else {
      try {
        sent = await send(run);
      } catch (error) {
        console.warn('An AI run failed unexpectedly:', error);
        sent = { status: 'failed', problem: 'The AI action didn’t work. Try again later.' };
      }
    }
    if (sent.status === 'later') {
      await db.aiRuns.update(run.id, { state: 'queued', updatedAt: now() });
      return true;
    }
    // The owner left while the server answered: whatever data is open now may not be theirs.
    // The answer waits on the run for their next pass.
    if (sent.status === 'done' && !isActive()) {
      await db.aiRuns.update(run.id, { state: 'queued', output: sent.output, updatedAt: now() });
      return false;
    }
    const landed: { ok: true; text: string } | { ok: false; problem: string } =
      sent.status === 'done' ? land(run, sent.output) : { ok: false, problem: sent.problem };
    await db.aiRuns.update(
      run.id,
      landed.ok
        ? { state: 'done', text: landed.text, problem: null, output: undefined, updatedAt: now() }
        : {
            state: 'failed',
            text: null,
            problem: landed.problem,
            output: undefined,
            updatedAt: now(),
          },
    );
  }
  return false;
}

/**
 * Runs the queue now if the device is online, again each time it comes back online and every half
 * minute while it seems online — sooner (SOON_MS) after a pass the server could not take — until
 * the returned function is called (the app closes, the person signs out). From then on, a pass
 * already under way sends nothing more and lands nothing.
 */
export function runQueuedAiRunsWhenOnline<Output>(options: RunQueuedOptions<Output>): () => void {
  let stopped = false;
  const isActive = () => !stopped && (options.isActive?.() ?? true);
  let latest: Promise<boolean> | undefined;
  const run = () => {
    const pass = runQueuedAiRuns({ ...options, isActive });
    // Joining a pass under way: it is followed up once, by whoever started it.
    if (pass === latest) return;
    latest = pass;
    pass
      .then((waiting) => {
        if (stopped || pass !== latest) return;
        if (waiting) soon.schedule();
        else soon.reset();
      })
      .catch((error: unknown) =>
        console.warn('Could not run the AI runs waiting on this device:', error),
      );
  };
  const whenOnline = () => {
    if (navigator.onLine) run();
  };
  const soon = createBackoff(whenOnline, SOON_MS, RETRY_MS);
  const cameOnline = () => {
    soon.reset();
    run();
  };
  whenOnline();
  window.addEventListener('online', cameOnline);
  // The browser may think it is online while the server is out of reach: try again now and then.
  const retry = setInterval(whenOnline, RETRY_MS);
  return () => {
    stopped = true;
    window.removeEventListener('online', cameOnline);
    clearInterval(retry);
    soon.cancel();
  };
}

/**
 * Resolves in a task of its own, so that the main thread is free in between to paint and to take
 * input: a phone's Total Blocking Time counts each task's time past 50 ms, so long work cut into
 * steps blocks less (docs/performance.md). `scheduler.yield()` where the browser has it (the rest then runs
 * ahead of the page's other queued work), else a zero timeout.
 */
export function nextTask(): Promise<void> {
  const { scheduler } = globalThis as { scheduler?: { yield?: () => Promise<void> } };
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

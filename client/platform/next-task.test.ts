import { afterEach, describe, expect, it, vi } from 'vitest';
import { nextTask } from './next-task';

describe('nextTask', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('resolves in a later task, not among the microtasks of this one', async () => {
    let resolved = false;
    void nextTask().then(() => (resolved = true));
    for (let i = 0; i < 10; i++) await Promise.resolve();
    expect(resolved).toBe(false);
    // One task later on purpose: that is when it must have resolved.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(resolved).toBe(true);
  });

  it("uses the browser's scheduler.yield() where there is one", async () => {
    const scheduler = {
      calls: 0,
      yield(this: { calls: number }) {
        this.calls += 1;
        return Promise.resolve();
      },
    };
    vi.stubGlobal('scheduler', scheduler);
    await nextTask();
    expect(scheduler.calls).toBe(1);
  });
});

import { describe, expect, it } from 'vitest';
import {
  formatDuration,
  IDLE_TIMER,
  isFinished,
  pauseTimer,
  shownSeconds,
  spokenDuration,
  startTimer,
} from '../src/timer-state';

const countdown = { mode: 'countdown', seconds: 90 } as const;
const stopwatch = { mode: 'stopwatch', seconds: 90 } as const;

describe('timer state', () => {
  it('counts down while running, holds while paused, and ends at zero', () => {
    let state = startTimer(countdown, IDLE_TIMER, 0);
    expect(shownSeconds(countdown, state, 0)).toBe(90);
    expect(shownSeconds(countdown, state, 10_400)).toBe(80);
    state = pauseTimer(countdown, state, 10_400);
    expect(shownSeconds(countdown, state, 999_999)).toBe(80);
    state = startTimer(countdown, state, 20_000);
    expect(shownSeconds(countdown, state, 30_000)).toBe(70);
    expect(isFinished(countdown, state, 99_599)).toBe(false);
    expect(isFinished(countdown, state, 99_600)).toBe(true);
    expect(shownSeconds(countdown, state, 500_000)).toBe(0);
    const done = pauseTimer(countdown, state, 500_000);
    expect(done.elapsedMs).toBe(90_000);
    // Starting a finished countdown starts it from the top.
    expect(shownSeconds(countdown, startTimer(countdown, done, 600_000), 600_000)).toBe(90);
  });

  it('counts up as a stopwatch', () => {
    const state = startTimer(stopwatch, IDLE_TIMER, 1_000);
    expect(shownSeconds(stopwatch, state, 3_725_999)).toBe(3724);
    expect(isFinished(stopwatch, state, 10 ** 9)).toBe(false);
    expect(startTimer(stopwatch, state, 5_000)).toBe(state);
    expect(pauseTimer(stopwatch, IDLE_TIMER, 5_000)).toBe(IDLE_TIMER);
  });

  it('writes durations for the eye and for the ear', () => {
    expect(formatDuration(3725)).toBe('1:02:05');
    expect(formatDuration(65)).toBe('1:05');
    expect(spokenDuration(3725)).toBe('1 hour 2 minutes 5 seconds');
    expect(spokenDuration(60)).toBe('1 minute');
    expect(spokenDuration(0)).toBe('0 seconds');
  });
});

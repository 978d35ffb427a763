import type { ComponentProps } from '@pipit/app-definition';

/** A timer's state; its display is computed from it and the clock, so it needs no ticking to be right. */
export interface TimerState {
  /** When the current run started (ms since the epoch), or null while paused or reset. */
  startedAt: number | null;
  /** Time counted by earlier runs (before the last pause). */
  elapsedMs: number;
}

export const IDLE_TIMER: TimerState = { startedAt: null, elapsedMs: 0 };

type TimerProps = Pick<ComponentProps<'timer'>, 'mode' | 'seconds'>;

export function isRunning(state: TimerState): boolean {
  return state.startedAt !== null;
}

export function elapsedMs(state: TimerState, now: number): number {
  return state.elapsedMs + (state.startedAt === null ? 0 : Math.max(0, now - state.startedAt));
}

/** The whole seconds shown: left of a countdown (rounded up, so it reads 0 only at the end), or counted. */
export function shownSeconds(props: TimerProps, state: TimerState, now: number): number {
  const elapsed = elapsedMs(state, now);
  if (props.mode === 'stopwatch') return Math.floor(elapsed / 1000);
  return Math.max(0, Math.ceil((props.seconds * 1000 - elapsed) / 1000));
}

export function isFinished(props: TimerProps, state: TimerState, now: number): boolean {
  return props.mode === 'countdown' && elapsedMs(state, now) >= props.seconds * 1000;
}

export function startTimer(props: TimerProps, state: TimerState, now: number): TimerState {
  if (isRunning(state)) return state;
  // Starting a finished countdown starts it again from the top.
  const base = isFinished(props, state, now) ? IDLE_TIMER : state;
  return { startedAt: now, elapsedMs: base.elapsedMs };
}

export function pauseTimer(props: TimerProps, state: TimerState, now: number): TimerState {
  if (!isRunning(state)) return state;
  const elapsed = elapsedMs(state, now);
  return {
    startedAt: null,
    elapsedMs: props.mode === 'countdown' ? Math.min(elapsed, props.seconds * 1000) : elapsed,
  };
}

/** `m:ss`, or `h:mm:ss` from an hour up. */
export function formatDuration(totalSeconds: number): string {
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  const s = totalSeconds % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

/** The same duration in words, for screen readers: "4 minutes 10 seconds". */
export function spokenDuration(totalSeconds: number): string {
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  const s = totalSeconds % 60;
  const part = (n: number, unit: string) => (n > 0 ? `${n} ${unit}${n === 1 ? '' : 's'}` : '');
  return (
    [part(h, 'hour'), part(m, 'minute'), part(s, 'second')].filter(Boolean).join(' ') || '0 seconds'
  );
}

import type { ComponentProps } from '@pipit/app-definition';
import { useEffect, useState } from 'react';
import { host } from '../host';
import type { RunContext, RenderContext } from '../render-context';
import {
  formatDuration,
  IDLE_TIMER,
  isFinished,
  isRunning,
  pauseTimer,
  shownSeconds,
  spokenDuration,
  startTimer,
  type TimerState,
} from '../timer-state';

/** Often enough that the shown second never lags visibly; only while the timer runs. */
const TICK_MS = 250;

function LiveTimer({
  props,
  run,
  componentId,
}: {
  props: ComponentProps<'timer'>;
  run: RunContext;
  componentId: string;
}) {
  const [state, setState] = useState<TimerState>(() => run.timers.get(componentId) ?? IDLE_TIMER);
  const [now, setNow] = useState(() => Date.now());
  const [announcement, setAnnouncement] = useState('');
  const running = isRunning(state);
  const { timers } = run;

  const save = (next: TimerState, message: string) => {
    timers.set(componentId, next);
    setState(next);
    setNow(Date.now());
    setAnnouncement(message);
  };

  useEffect(() => {
    if (!running) return;
    // An interval only while running: an idle timer costs nothing.
    const id = host.setInterval(() => {
      const time = Date.now();
      if (isFinished(props, state, time)) {
        const done = pauseTimer(props, state, time);
        timers.set(componentId, done);
        setState(done);
        setAnnouncement(`${props.label}: time’s up.`);
      }
      setNow(time);
    }, TICK_MS);
    return () => host.clearInterval(id);
  }, [running, props, state, timers, componentId]);

  const seconds = shownSeconds(props, state, now);
  const finished = isFinished(props, state, now);
  const atStart = !running && state.elapsedMs === 0;
  const toggle = () => {
    const time = Date.now();
    if (running) {
      const paused = pauseTimer(props, state, time);
      save(paused, `Paused at ${spokenDuration(shownSeconds(props, paused, time))}.`);
    } else {
      save(startTimer(props, state, time), 'Started.');
    }
  };
  return (
    <div className="rt-card rt-timer">
      <span className="rt-timer-label">{props.label}</span>
      <span
        className={`rt-timer-value${finished ? ' rt-timer-done' : ''}`}
        role="timer"
        aria-label={`${props.label}: ${spokenDuration(seconds)}${finished ? ', time’s up' : ''}`}
      >
        {formatDuration(seconds)}
      </span>
      <div className="rt-timer-buttons">
        <button type="button" className="rt-button rt-button-primary" onClick={toggle}>
          {running ? 'Pause' : finished ? 'Start again' : atStart ? 'Start' : 'Resume'}
        </button>
        <button
          type="button"
          className="rt-button rt-button-secondary"
          disabled={atStart}
          onClick={() => save(IDLE_TIMER, 'Reset.')}
        >
          Reset
        </button>
      </div>
      <span className="rt-visually-hidden" role="status" aria-live="polite">
        {announcement}
      </span>
    </div>
  );
}

export function TimerBlock({
  props,
  context,
  componentId,
}: {
  props: ComponentProps<'timer'>;
  context: RenderContext;
  componentId: string;
}) {
  if (context.run) return <LiveTimer props={props} run={context.run} componentId={componentId} />;
  const shown = props.mode === 'countdown' ? props.seconds : 0;
  return (
    <div className="rt-card rt-timer">
      <span className="rt-timer-label">{props.label}</span>
      <span className="rt-timer-value">{formatDuration(shown)}</span>
      <button type="button" className="rt-button rt-button-secondary">
        Start
      </button>
    </div>
  );
}

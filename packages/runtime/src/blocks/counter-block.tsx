import type { ComponentProps } from '@pipit/app-definition';
import { useId } from 'react';
import type { RenderContext } from '../render-context';

/**
 * A counter, kept in the visitor's data by component id. It does not go below zero: counters count
 * things done (glasses of water, pages read).
 */
export function CounterBlock({
  props,
  context,
  componentId,
}: {
  props: ComponentProps<'counter'>;
  context: RenderContext;
  componentId: string;
}) {
  const labelId = useId();
  const { run } = context;
  const value = run?.data.counters[componentId] ?? 0;
  const change = run
    ? (delta: number) => run.setCounter(componentId, Math.max(0, value + delta))
    : undefined;
  return (
    <div className="rt-card rt-counter" role="group" aria-labelledby={labelId}>
      <span className="rt-counter-label" id={labelId}>
        {props.label}
      </span>
      <div className="rt-counter-row">
        <button
          type="button"
          className="rt-round-button"
          aria-label={`Decrease by ${props.step}`}
          disabled={run ? value <= 0 : undefined}
          onClick={change ? () => change(-props.step) : undefined}
        >
          −
        </button>
        <output className="rt-counter-value" aria-live="polite">
          {value}
        </output>
        <button
          type="button"
          className="rt-round-button"
          aria-label={`Increase by ${props.step}`}
          onClick={change ? () => change(props.step) : undefined}
        >
          +
        </button>
      </div>
    </div>
  );
}

import type { ComponentProps } from '@pipit/app-definition';
import { Heading } from '../heading';
import type { RenderContext } from '../render-context';
import { SafeLink } from '../safe-link';
import { SafeMarkdown } from '../safe-markdown';
import { safeHref } from '../safe-url';

export function HeadingBlock({ props }: { props: ComponentProps<'heading'> }) {
  return <Heading level={props.level}>{props.text}</Heading>;
}

export function TextBlock({ props }: { props: ComponentProps<'text'> }) {
  return <SafeMarkdown markdown={props.markdown} />;
}

export function ImageBlock({ props }: { props: ComponentProps<'image'> }) {
  const src = safeHref(props.src);
  if (src === null) {
    return (
      <div className="rt-image-placeholder" role="img" aria-label={props.alt || 'No image'}>
        <span aria-hidden="true">🖼️</span>
        <span>{props.src ? 'This image address cannot be shown' : 'No image yet'}</span>
      </div>
    );
  }
  return (
    <img
      className={`rt-image rt-image-${props.fit}`}
      src={src}
      alt={props.alt}
      loading="lazy"
      referrerPolicy="no-referrer"
    />
  );
}

/** The screen a button's action navigates to, if its action has a navigate step. */
export function navigateTarget(context: RenderContext, actionId: string | null): string | null {
  const action = context.definition.actions.find((a) => a.id === actionId);
  for (const step of action?.steps ?? []) {
    if (step.type === 'navigate' && step.props.screenId) return step.props.screenId;
  }
  return null;
}

export function ButtonBlock({
  props,
  context,
}: {
  props: ComponentProps<'button'>;
  context: RenderContext;
}) {
  const target = navigateTarget(context, props.actionId);
  const { onNavigate } = context;
  return (
    <button
      type="button"
      className={`rt-button rt-button-${props.style}`}
      onClick={target && onNavigate ? () => onNavigate(target) : undefined}
    >
      {props.label || 'Button'}
    </button>
  );
}

export function DividerBlock() {
  return <hr className="rt-divider" />;
}

export function LinkBlock({ props }: { props: ComponentProps<'link'> }) {
  return (
    <p className="rt-link-block">
      <SafeLink url={props.url}>{props.label || props.url || 'Link'}</SafeLink>
    </p>
  );
}

export function CounterBlock({ props }: { props: ComponentProps<'counter'> }) {
  return (
    <div className="rt-card rt-counter">
      <span className="rt-counter-label">{props.label}</span>
      <div className="rt-counter-row">
        <button type="button" className="rt-round-button" aria-label={`Decrease by ${props.step}`}>
          −
        </button>
        <output className="rt-counter-value">0</output>
        <button type="button" className="rt-round-button" aria-label={`Increase by ${props.step}`}>
          +
        </button>
      </div>
    </div>
  );
}

/** `m:ss`, or `h:mm:ss` from an hour up. */
export function formatDuration(totalSeconds: number): string {
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  const s = totalSeconds % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

export function TimerBlock({ props }: { props: ComponentProps<'timer'> }) {
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

export function AiBlock({ props }: { props: ComponentProps<'ai'> }) {
  return (
    <div className="rt-card rt-ai">
      <button type="button" className="rt-button rt-button-secondary">
        <span aria-hidden="true">✨ </span>
        {props.label || 'Ask AI'}
      </button>
      <p className="rt-muted">AI runs when the app is open</p>
    </div>
  );
}

import type { ComponentProps } from '@pipit/app-definition';
import { escapeMarkdown, fillText } from '../fill-text';
import { Heading } from '../heading';
import type { RenderContext } from '../render-context';
import { SafeLink } from '../safe-link';
import { SafeMarkdown } from '../safe-markdown';
import { safeHref } from '../safe-url';

export function HeadingBlock({
  props,
  context,
}: {
  props: ComponentProps<'heading'>;
  context: RenderContext;
}) {
  return <Heading level={props.level}>{fillText(context, props.text)}</Heading>;
}

export function TextBlock({
  props,
  context,
}: {
  props: ComponentProps<'text'>;
  context: RenderContext;
}) {
  // Values are escaped, so a record's text can never add a link or formatting of its own.
  return <SafeMarkdown markdown={fillText(context, props.markdown, escapeMarkdown)} />;
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

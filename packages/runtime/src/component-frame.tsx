import type { ComponentType } from '@pipit/app-definition';
import type { CSSProperties, KeyboardEvent, MouseEvent, ReactNode } from 'react';
import { isHexColor, readableOn } from './color';

/** Another person's selection, drawn as an outline in their colour with their name. */
export interface PresenceMark {
  componentId: string;
  name: string;
  color: string;
}

/** Presence colours come from other people's awareness state: only `#rrggbb` is used. */
const FALLBACK_PRESENCE_COLOR = '#5b5bd6';

const TYPE_NAMES: Partial<Record<ComponentType, string>> = {
  ai: 'AI',
};

export function typeName(type: string): string {
  return TYPE_NAMES[type as ComponentType] ?? type;
}

interface Props {
  componentId: string;
  type: string;
  selected: boolean;
  onSelect?: ((componentId: string) => void) | undefined;
  presence: PresenceMark[];
  children: ReactNode;
}

/**
 * Wraps one component: selectable by click, Enter or Space when `onSelect` is given, outlined when
 * selected, and ringed in the colours of other people who have it selected. The wrapper is a named,
 * focusable group rather than a button, because a button may not contain the links and buttons a
 * component renders (axe `nested-interactive`).
 */
export function ComponentFrame({
  componentId,
  type,
  selected,
  onSelect,
  presence,
  children,
}: Props) {
  const colors = presence.map((p) => (isHexColor(p.color) ? p.color : FALLBACK_PRESENCE_COLOR));
  const style: CSSProperties | undefined =
    colors.length > 0
      ? { boxShadow: colors.map((c, i) => `0 0 0 ${2 * (i + 1)}px ${c}`).join(', ') }
      : undefined;
  const labels =
    presence.length > 0 ? (
      <span className="rt-presence-labels" aria-hidden="true">
        {presence.map((p, i) => {
          const color = colors[i] ?? FALLBACK_PRESENCE_COLOR;
          return (
            <span
              key={`${p.name}-${i}`}
              className="rt-presence-label"
              style={{ background: color, color: readableOn(color) }}
            >
              {p.name}
            </span>
          );
        })}
      </span>
    ) : null;
  const className = `rt-frame${selected ? ' rt-frame-selected' : ''}${
    presence.length > 0 ? ' rt-frame-presence' : ''
  }`;
  if (!onSelect) {
    return (
      <div className={className} style={style} data-component-id={componentId}>
        {labels}
        {children}
      </div>
    );
  }
  const onClick = (event: MouseEvent) => {
    // In the editor a click selects: links inside must not navigate away from it.
    event.preventDefault();
    onSelect(componentId);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.target !== event.currentTarget) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onSelect(componentId);
    }
  };
  return (
    <div
      className={`${className} rt-frame-selectable`}
      style={style}
      data-component-id={componentId}
      role="group"
      tabIndex={0}
      aria-label={`Select ${typeName(type)} component${
        presence.length > 0 ? `, selected by ${presence.map((p) => p.name).join(', ')}` : ''
      }`}
      aria-current={selected ? 'true' : undefined}
      onClick={onClick}
      onKeyDown={onKeyDown}
    >
      {labels}
      {children}
    </div>
  );
}

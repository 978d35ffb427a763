import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef } from 'react';

interface TabsProps<T extends string> {
  label: string;
  tabs: ReadonlyArray<{ value: T; label: string }>;
  value: T;
  onChange(value: T): void;
  /** The selected tab's panel. */
  children: ReactNode;
  className?: string;
  /** `bar`: a full-width bar of equal tabs (the small-screen layout switcher). */
  variant?: 'tabs' | 'bar';
}

/**
 * WAI-ARIA tabs with automatic activation: arrow keys, Home and End move between tabs. Only the
 * selected panel is rendered, so hidden panels stay out of the tab order. The tabs stay on one line;
 * where they do not fit (a phone), the strip scrolls sideways and keeps the selected tab in view.
 */
export function Tabs<T extends string>({
  label,
  tabs,
  value,
  onChange,
  children,
  className,
  variant = 'tabs',
}: TabsProps<T>) {
  const baseId = useId();
  const listRef = useRef<HTMLDivElement>(null);
  const tabId = (v: T) => `${baseId}-tab-${v}`;
  const panelId = `${baseId}-panel`;
  // Sideways only, within the strip: never the page (scrollIntoView would scroll it too).
  useEffect(() => {
    const list = listRef.current;
    const tab = list?.querySelector<HTMLElement>('[aria-selected="true"]');
    if (!list || !tab || list.scrollWidth <= list.clientWidth) return;
    const strip = list.getBoundingClientRect();
    const selected = tab.getBoundingClientRect();
    if (selected.left < strip.left) list.scrollLeft -= strip.left - selected.left;
    else if (selected.right > strip.right) list.scrollLeft += selected.right - strip.right;
  }, [value]);
  const onKeyDown = (event: KeyboardEvent) => {
    const index = tabs.findIndex((t) => t.value === value);
    let next = -1;
    if (event.key === 'ArrowRight') next = (index + 1) % tabs.length;
    else if (event.key === 'ArrowLeft') next = (index - 1 + tabs.length) % tabs.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = tabs.length - 1;
    const target = tabs[next];
    if (!target) return;
    event.preventDefault();
    onChange(target.value);
    listRef.current?.querySelector<HTMLElement>(`#${CSS.escape(tabId(target.value))}`)?.focus();
  };
  return (
    <div className={`editor-tabs editor-tabs--${variant}${className ? ` ${className}` : ''}`}>
      <div
        className="editor-tabs__list"
        role="tablist"
        aria-label={label}
        ref={listRef}
        onKeyDown={onKeyDown}
      >
        {tabs.map((tab) => {
          const selected = tab.value === value;
          return (
            <button
              key={tab.value}
              type="button"
              role="tab"
              id={tabId(tab.value)}
              className="editor-tabs__tab"
              aria-selected={selected}
              aria-controls={selected ? panelId : undefined}
              tabIndex={selected ? 0 : -1}
              onClick={() => onChange(tab.value)}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      <div
        className="editor-tabs__panel"
        role="tabpanel"
        id={panelId}
        aria-labelledby={tabId(value)}
      >
        {children}
      </div>
    </div>
  );
}

/*
 * The few browser APIs the runtime uses, typed here: packages compile without the DOM library
 * (packages declare no environment: docs/README.md#conventions), and the runtime also renders in
 * Node tests.
 */

/** A timer handle: a number in browsers, an object in Node. */
type TimerId = unknown;

/** Tells when an element comes within a margin of the visible area (IntersectionObserver). */
interface IntersectionWatcher {
  observe(target: unknown): void;
  disconnect(): void;
}

interface HostGlobals {
  setInterval(callback: () => void, ms: number): TimerId;
  clearInterval(id: TimerId): void;
  setTimeout(callback: () => void, ms: number): TimerId;
  clearTimeout(id: TimerId): void;
  open?: (url: string, target: string, features: string) => unknown;
  location?: { assign(url: string): void };
  addEventListener?: (type: string, listener: () => void, options?: { once?: boolean }) => void;
  removeEventListener?: (type: string, listener: () => void) => void;
  /** Absent in Node tests (and very old browsers). */
  IntersectionObserver?: new (
    callback: (entries: ReadonlyArray<{ isIntersecting: boolean }>) => void,
    options?: { rootMargin?: string },
  ) => IntersectionWatcher;
}

export const host = globalThis as unknown as HostGlobals;
export type { TimerId };

interface Focusable {
  focus(options?: { preventScroll?: boolean }): void;
}

/** Moves keyboard and screen-reader focus to an element (a ref's current value), if any. */
export function focusElement(element: unknown): void {
  const target = element as Partial<Focusable> | null | undefined;
  if (target && typeof target.focus === 'function') target.focus();
}

/** The first descendant of `root` that matches `selector`, focused; false when there is none. */
export function focusFirst(root: unknown, selector: string): boolean {
  const container = root as { querySelector?: (s: string) => unknown } | null | undefined;
  const found = container?.querySelector?.(selector);
  if (!found) return false;
  focusElement(found);
  return true;
}

/** The text of an input, select or textarea from its change event. */
export function inputValue(event: { currentTarget: unknown }): string {
  const value = (event.currentTarget as { value?: unknown }).value;
  return typeof value === 'string' ? value : '';
}

/** Whether a checkbox is ticked, from its change event. */
export function inputChecked(event: { currentTarget: unknown }): boolean {
  return (event.currentTarget as { checked?: unknown }).checked === true;
}

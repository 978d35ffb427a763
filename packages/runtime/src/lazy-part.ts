import { type ComponentType, createElement, type ReactNode } from 'react';
import { type LazyModule, useLazyModule } from './lazy-module';

/**
 * A component from code only some apps need (a chart, a timer, a photo picker, a board…), in its
 * own chunk. Unlike React.lazy it is drawn in the very first render when its module is already
 * here (loaded ahead of it: `preloadRuntimeParts`, which the installed app awaits before its first
 * render, so an app opening offline draws its chart at once), a failed load is tried again (a
 * module import that failed offline stays failed for React.lazy until the page reloads), and
 * until it comes `fallback` holds its place.
 */
export function lazyPart<M, P extends object>(
  lazy: LazyModule<M>,
  pick: (module: M) => ComponentType<P>,
  fallback: () => ReactNode,
): ComponentType<P> {
  function LazyPart(props: P) {
    const module = useLazyModule(lazy, true);
    return module ? createElement(pick(module), props) : fallback();
  }
  return LazyPart;
}

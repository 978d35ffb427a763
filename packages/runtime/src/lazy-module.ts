import { useEffect, useState } from 'react';
import { host, type TimerId } from './host';

/*
 * Code only some apps need (the formula engine, relations and rollups), loaded as its own chunk the
 * first time an app needs it, so an app without it never downloads it.
 */

export interface LazyModule<M> {
  /** The module, loading it once; a failed load (offline before it was cached) is tried again. */
  load(): Promise<M>;
  /** The module once it is here, else null. */
  loaded(): M | null;
}

export function lazyModule<M>(importer: () => Promise<M>): LazyModule<M> {
  let module: M | null = null;
  let loading: Promise<M> | null = null;
  return {
    load() {
      loading ??= importer().then(
        (value) => (module = value),
        (error: unknown) => {
          loading = null;
          throw error;
        },
      );
      return loading;
    },
    loaded: () => module,
  };
}

/** After a failed load (offline before the service worker had the chunk), when to try again. */
const RETRY_MS = 5_000;

/**
 * The module once it is here when `wanted` (null until then, and whenever not wanted). A failed
 * load is tried again a little later, and at once when the device comes back online.
 */
export function useLazyModule<M>(lazy: LazyModule<M>, wanted: boolean): M | null {
  const [module, setModule] = useState<M | null>(() => (wanted ? lazy.loaded() : null));
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (!wanted || module) return;
    let live = true;
    let timer: TimerId | undefined;
    const again = () => live && setAttempt((n) => n + 1);
    lazy.load().then(
      (value) => live && setModule(value),
      () => {
        if (!live) return;
        timer = host.setTimeout(again, RETRY_MS);
        host.addEventListener?.('online', again, { once: true });
      },
    );
    return () => {
      live = false;
      if (timer !== undefined) host.clearTimeout(timer);
      host.removeEventListener?.('online', again);
    };
  }, [lazy, wanted, module, attempt]);
  return wanted ? module : null;
}

import { useEffect, useState } from 'react';

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

/** The module once it is here when `wanted` (null until then, and whenever not wanted). */
export function useLazyModule<M>(lazy: LazyModule<M>, wanted: boolean): M | null {
  const [module, setModule] = useState<M | null>(() => (wanted ? lazy.loaded() : null));
  useEffect(() => {
    if (!wanted || module) return;
    let live = true;
    lazy.load().then(
      (value) => live && setModule(value),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [lazy, wanted, module]);
  return wanted ? module : null;
}

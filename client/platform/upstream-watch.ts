import type { Upstream, UpstreamVersions } from '@pipit/protocol';

/** While a remix's editor is open, the server is asked this often whether its original published again. */
export const UPSTREAM_CHECK_INTERVAL_MS = 5 * 60 * 1000;
/** Never more often than this: coming back to the tab fires focus and visibility together. */
export const UPSTREAM_MIN_CHECK_GAP_MS = 5 * 1000;

export interface UpstreamWatchDeps {
  /** The version numbers alone (`?versions=1`): a small answer, read without the versions. */
  check(): Promise<UpstreamVersions | null>;
  /** The whole answer, with the two definitions. */
  load(): Promise<Upstream | null>;
  /** A new whole answer to show. */
  onUpstream(upstream: Upstream | null): void;
  now(): number;
  isOnline(): boolean;
  isVisible(): boolean;
}

const versionsOf = (upstream: Upstream | null): UpstreamVersions | null =>
  upstream ? { base: upstream.base.version, latest: upstream.latest.version } : null;

const same = (a: UpstreamVersions | null, b: UpstreamVersions | null) =>
  a === null || b === null ? a === b : a.base === b.base && a.latest === b.latest;

/**
 * How a remix's editor learns that its original published a newer version without a reload
 * (docs/product/history.md#remixes-that-pull-their-originals-updates): the whole answer
 * once when it opens, then — when the page is shown again, the window focused, the device back
 * online, and every few minutes while it is visible and online — only the two version numbers,
 * at most once every few seconds; the whole answer again only when they changed (a new version,
 * a pull made elsewhere, the original no longer shared). A failed request changes nothing: it is
 * asked again next time.
 */
export function createUpstreamWatch(deps: UpstreamWatchDeps) {
  /** The versions of the answer shown; undefined until the first one came. */
  let shown: UpstreamVersions | null | undefined;
  let lastCheck = -Infinity;
  let busy = false;
  let stopped = false;

  async function load(): Promise<void> {
    const upstream = await deps.load();
    if (stopped) return;
    shown = versionsOf(upstream);
    deps.onUpstream(upstream);
  }

  return {
    /** The whole answer, when the editor opens. */
    async start(): Promise<void> {
      if (!deps.isOnline()) return;
      busy = true;
      try {
        await load();
      } catch {
        // Offline, or the server is down: asked again at the next check.
      } finally {
        busy = false;
      }
    },
    /** A chance to check: a focus, a visibility change, coming online, the interval. */
    async poke(): Promise<void> {
      if (stopped || busy || !deps.isOnline() || !deps.isVisible()) return;
      const now = deps.now();
      if (now - lastCheck < UPSTREAM_MIN_CHECK_GAP_MS) return;
      lastCheck = now;
      busy = true;
      try {
        const versions = await deps.check();
        if (stopped) return;
        if (shown === undefined || !same(versions, shown)) await load();
      } catch {
        // As above: the next check asks again.
      } finally {
        busy = false;
      }
    },
    /** The answer the person acted on (a pull): its versions are the ones shown now. */
    shown(upstream: Upstream | null): void {
      shown = versionsOf(upstream);
    },
    stop(): void {
      stopped = true;
    },
  };
}

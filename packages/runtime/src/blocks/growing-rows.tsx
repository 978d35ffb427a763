import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import { host } from '../host';

/*
 * A long list draws its first rows, and more as the visitor nears the end of what is drawn. A
 * visitor keeps up to 5,000 records, and drawing every one of them as the app opened was most of
 * the installed app's start on a phone (docs/performance.md, "Records at scale"). The list's own
 * search box finds any record, drawn or not; the button says what is left and draws it on a tap
 * or a keypress, for anyone the automatic drawing does not reach (a screen reader's virtual
 * cursor, a browser without IntersectionObserver).
 */

/** Rows drawn at first: several screens of a phone, so a first scroll never waits. */
export const FIRST_ROWS = 50;
/** Rows added each time the end comes near. */
export const MORE_ROWS = 200;
/**
 * Cards a gallery adds each time: each is a picture to fetch, decode and lay out, and 150 of them
 * at once held a phone's main thread ~0.5 s in the middle of a scroll (docs/performance.md).
 */
export const MORE_CARDS = 40;
/** How far below the visible area the end of the drawn rows starts drawing more. */
const AHEAD_PX = 1200;

/**
 * How many of `total` rows to draw, and a way to draw `step` more. More rows are drawn as a
 * transition: React draws them in slices between the browser's frames, so a scroll that brings
 * the end near keeps moving while they are made.
 */
export function useGrowingRows(
  total: number,
  step = MORE_ROWS,
): { shown: number; more: () => void; step: number } {
  const [limit, setLimit] = useState(FIRST_ROWS);
  const more = useCallback(() => startTransition(() => setLimit((n) => n + step)), [step]);
  return { shown: Math.min(limit, total), more, step };
}

/** 4950 as "4,950", as the app writes counts (no Intl: its first use costs a phone ~50 ms). */
const grouped = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** After the drawn rows of a longer list: "Show 200 more", pressed by itself as it nears view. */
export function MoreRows({
  left,
  onMore,
  step = MORE_ROWS,
}: {
  left: number;
  onMore: () => void;
  step?: number;
}) {
  const ref = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const button = ref.current;
    const Watcher = host.IntersectionObserver;
    if (!button || !Watcher) return;
    // Made again after each growth (`left` changed): a new observer reports at once whether the
    // button is still near, so a tall screen fills without a scroll.
    const observer = new Watcher(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) onMore();
      },
      { rootMargin: `0px 0px ${AHEAD_PX}px 0px` },
    );
    observer.observe(button);
    return () => observer.disconnect();
  }, [left, onMore]);
  if (left <= 0) return null;
  return (
    <button
      ref={ref}
      type="button"
      className="rt-button rt-button-secondary rt-more-rows"
      onClick={onMore}
    >
      Show {Math.min(left, step)} more of {grouped(left)}
    </button>
  );
}

import { useMemo, useSyncExternalStore } from 'react';

const never = () => () => {};

/**
 * A moment as the reader's clock dates it. A page rendered on the server dates it in UTC, and so
 * does the browser's first render of that page (hydrating needs the very same text); the render
 * after dates it in the reader's time zone. Rendered in the browser alone, it is local at once.
 */
export function LocalTime({
  at,
  locale,
  options,
}: {
  at: number;
  locale: string;
  options: Intl.DateTimeFormatOptions;
}) {
  const local = useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
  const format = useMemo(
    () => new Intl.DateTimeFormat(locale, local ? options : { ...options, timeZone: 'UTC' }),
    [locale, options, local],
  );
  return <time dateTime={new Date(at).toISOString()}>{format.format(at)}</time>;
}

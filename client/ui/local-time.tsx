import { useSyncExternalStore } from 'react';
import { calendarDate, type CalendarStyle } from './calendar-date';

const never = () => () => {};

/**
 * A moment as the reader's clock dates it ("2 Nov 2026", or "November 2026" with `style="month"`).
 * A page rendered on the server dates it in UTC, and so does the browser's first render of that
 * page (hydrating needs the very same text); the render after dates it in the reader's time zone.
 * Rendered in the browser alone, it is local at once.
 */
export function LocalTime({ at, style = 'day' }: { at: number; style?: CalendarStyle }) {
  const local = useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
  return (
    <time dateTime={new Date(at).toISOString()}>
      {calendarDate(at, style, local ? 'local' : 'utc')}
    </time>
  );
}

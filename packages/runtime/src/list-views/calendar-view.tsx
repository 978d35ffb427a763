import { type Field, fitsViewField } from '@pipit/app-definition';
import { useId, useState } from 'react';
import { SetupNote } from '../blocks/setup-note';
import { createBlocked } from '../permissions';
import { findField } from '../records';
import {
  type CalendarDay,
  type CalendarMode,
  dayKey,
  inPeriod,
  monthWeeks,
  recordsByDay,
  shiftAnchor,
  weekDays,
} from './calendar-grid';
import { type ListRecord, titleText, type ViewProps } from './view-parts';
import './list-views.css';

/** A month's day shows this many records; a "+2" opens its week, where every one shows. */
const MONTH_DAY_ITEMS = 2;

/** Made on first use and kept: a page's first Intl format loads the browser's locale data. */
let formats:
  | {
      full: Intl.DateTimeFormat;
      month: Intl.DateTimeFormat;
      weekdayShort: Intl.DateTimeFormat;
      weekdayLong: Intl.DateTimeFormat;
      dayMonth: Intl.DateTimeFormat;
      range: Intl.DateTimeFormat;
    }
  | undefined;
function dateFormats() {
  return (formats ??= {
    full: new Intl.DateTimeFormat(undefined, {
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
    }),
    month: new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric' }),
    weekdayShort: new Intl.DateTimeFormat(undefined, { weekday: 'short' }),
    weekdayLong: new Intl.DateTimeFormat(undefined, { weekday: 'long' }),
    dayMonth: new Intl.DateTimeFormat(undefined, {
      weekday: 'short',
      day: 'numeric',
      month: 'short',
    }),
    range: new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'long', year: 'numeric' }),
  });
}

/** What a date field's form control takes for a day; a date and time starts at nine. */
function prefillFor(field: Field, day: string): string {
  return field.type === 'date' ? day : `${day}T09:00`;
}

/**
 * What tapping a day does: open the list's add screen with the day's date filled in, when the
 * person may add to the collection here (the preview just goes there); null when there is nothing
 * to add with, so days are not offered as buttons.
 */
function dayAdder(view: ViewProps, field: Field): ((day: CalendarDay) => void) | null {
  const { props, collection, context } = view;
  const screenId = props.addScreenId;
  if (!screenId || !context.definition.screens.some((s) => s.id === screenId)) return null;
  const { run, onNavigate } = context;
  if (run) {
    if (createBlocked(run.data, collection.id)) return null;
    return (day) => run.openForm(screenId, { [field.id]: prefillFor(field, day.key) });
  }
  return onNavigate ? () => onNavigate(screenId) : null;
}

/** The month or week on show, and going from one to the next. */
function useCalendarPeriod() {
  const [mode, setMode] = useState<CalendarMode>('month');
  const [anchor, setAnchor] = useState(() => new Date());
  return {
    mode,
    anchor,
    step: (steps: number) => setAnchor(shiftAnchor(anchor, mode, steps)),
    today: () => setAnchor(new Date()),
    show(next: CalendarMode, at?: Date) {
      const now = new Date();
      // This week, when this month is the one on show: what a person switching to a week means.
      setAnchor(at ?? (next === 'week' && inPeriod(anchor, 'month', now) ? now : anchor));
      setMode(next);
    },
  };
}

type Period = ReturnType<typeof useCalendarPeriod>;

/**
 * A list as a calendar: a month grid or a week, Monday first, in the device's own dates; each
 * record on its day. With an add screen, tapping a day opens it with that day's date filled in.
 */
export function CalendarView(view: ViewProps) {
  const { props, collection, records, emptyText } = view;
  const period = useCalendarPeriod();
  const titleId = useId();
  const field = findField(collection, props.dateFieldId);
  if (!field || !fitsViewField('dateFieldId', field.type)) {
    return <SetupNote>Choose a date field for this calendar.</SetupNote>;
  }
  const byDay = recordsByDay(records, field.id);
  let dated = 0;
  for (const list of byDay.values()) dated += list.length;
  const grid = { view, byDay, add: dayAdder(view, field), period, titleId };
  return (
    <div className="rt-card rt-calendar">
      <CalendarBar period={period} titleId={titleId} />
      {period.mode === 'month' ? <MonthGrid {...grid} /> : <WeekList {...grid} />}
      {records.length === 0 ? (
        <p className="rt-muted rt-calendar-note">{emptyText}</p>
      ) : dated < records.length ? (
        <p className="rt-muted rt-calendar-note">
          {records.length - dated === 1
            ? '1 item has no date, so it isn’t on the calendar.'
            : `${records.length - dated} items have no date, so they aren’t on the calendar.`}
        </p>
      ) : null}
    </div>
  );
}

function periodTitle({ mode, anchor }: Period): string {
  const f = dateFormats();
  if (mode === 'month') return f.month.format(anchor);
  const days = weekDays(anchor);
  return f.range.formatRange(days[0]!.date, days[6]!.date);
}

function CalendarBar({ period, titleId }: { period: Period; titleId: string }) {
  const unit = period.mode === 'month' ? 'month' : 'week';
  return (
    <div className="rt-calendar-bar">
      {/* Said again as it changes: where Previous and Next went. */}
      <p className="rt-calendar-title" id={titleId} aria-live="polite">
        {periodTitle(period)}
      </p>
      <div className="rt-calendar-nav">
        <button
          type="button"
          className="rt-calendar-button"
          aria-label={`Previous ${unit}`}
          onClick={() => period.step(-1)}
        >
          <span aria-hidden="true">‹</span>
        </button>
        <button type="button" className="rt-calendar-button" onClick={period.today}>
          Today
        </button>
        <button
          type="button"
          className="rt-calendar-button"
          aria-label={`Next ${unit}`}
          onClick={() => period.step(1)}
        >
          <span aria-hidden="true">›</span>
        </button>
      </div>
      <div className="rt-calendar-modes" role="group" aria-label="Show">
        {(['month', 'week'] as const).map((mode) => (
          <button
            key={mode}
            type="button"
            className="rt-calendar-button"
            aria-pressed={period.mode === mode}
            onClick={() => period.show(mode)}
          >
            {mode === 'month' ? 'Month' : 'Week'}
          </button>
        ))}
      </div>
    </div>
  );
}

interface GridProps {
  view: ViewProps;
  byDay: Map<string, ListRecord[]>;
  add: ((day: CalendarDay) => void) | null;
  period: Period;
  titleId: string;
}

function MonthGrid({ view, byDay, add, period, titleId }: GridProps) {
  const f = dateFormats();
  const today = dayKey(new Date());
  const weeks = monthWeeks(period.anchor);
  return (
    <table className="rt-calendar-month" aria-labelledby={titleId}>
      <thead>
        <tr>
          {(weeks[0] ?? []).map((day) => (
            <th key={day.key} scope="col">
              <span aria-hidden="true">{f.weekdayShort.format(day.date)}</span>
              <span className="rt-visually-hidden">{f.weekdayLong.format(day.date)}</span>
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {weeks.map((week) => (
          <tr key={week[0]!.key}>
            {week.map((day) => {
              const items = byDay.get(day.key) ?? [];
              const more = items.length - MONTH_DAY_ITEMS;
              return (
                <td
                  key={day.key}
                  className={`rt-calendar-cell${day.inMonth ? '' : ' rt-calendar-outside'}${
                    day.key === today ? ' rt-calendar-today' : ''
                  }`}
                >
                  <DayLabel day={day} add={add} today={day.key === today} short />
                  <DayItems view={view} items={items.slice(0, MONTH_DAY_ITEMS)} />
                  {more > 0 && (
                    <button
                      type="button"
                      className="rt-calendar-more"
                      aria-label={`+${more} more on ${f.full.format(day.date)}: show the week`}
                      onClick={() => period.show('week', day.date)}
                    >
                      +{more}
                    </button>
                  )}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function WeekList({ view, byDay, add, period, titleId }: GridProps) {
  const today = dayKey(new Date());
  return (
    <ol className="rt-calendar-week" aria-labelledby={titleId}>
      {weekDays(period.anchor).map((day) => (
        <li
          key={day.key}
          className={`rt-calendar-week-day${day.key === today ? ' rt-calendar-today' : ''}`}
        >
          <DayLabel day={day} add={add} today={day.key === today} short={false} />
          <DayItems view={view} items={byDay.get(day.key) ?? []} />
        </li>
      ))}
    </ol>
  );
}

/**
 * A day's date: a button that adds on that day when adding is possible, else text. Either way a
 * screen reader hears the whole date, not a lone number.
 */
function DayLabel({
  day,
  add,
  today,
  short,
}: {
  day: CalendarDay;
  add: GridProps['add'];
  today: boolean;
  short: boolean;
}) {
  const f = dateFormats();
  const full = f.full.format(day.date);
  const shown = short ? String(day.date.getDate()) : f.dayMonth.format(day.date);
  const current = today ? ('date' as const) : undefined;
  if (!add) {
    return (
      <span className="rt-calendar-day" aria-current={current}>
        <span aria-hidden="true">{shown}</span>
        <span className="rt-visually-hidden">{full}</span>
      </span>
    );
  }
  return (
    <button
      type="button"
      className="rt-calendar-day rt-calendar-add"
      aria-label={`Add on ${full}`}
      aria-current={current}
      onClick={() => add(day)}
    >
      {shown}
      {!short && (
        <span className="rt-calendar-add-mark" aria-hidden="true">
          +
        </span>
      )}
    </button>
  );
}

function DayItems({ view, items }: { view: ViewProps; items: readonly ListRecord[] }) {
  if (items.length === 0) return null;
  const { titleField, open } = view;
  return (
    <ul className="rt-calendar-items">
      {items.map((record) => {
        const title = titleText(record, titleField);
        return (
          <li key={record.id}>
            {open ? (
              <button type="button" className="rt-calendar-item" onClick={() => open(record.id)}>
                {title}
              </button>
            ) : (
              <span className="rt-calendar-item">{title}</span>
            )}
          </li>
        );
      })}
    </ul>
  );
}

import { type FormEvent, useState } from 'react';
import {
  type Reminder,
  type ReminderPreferences,
  reminderPreferencesSchema,
  reminderSchema,
  scheduleInWords,
} from '@pipit/app-definition';
import { answerParser } from '@pipit/protocol';
import { z } from 'zod';
import { apiSend, describeError } from '../../platform/api/request';
import { useApiGet } from '../../platform/api/use-api-get';
import { pushAvailability, subscribeForApp } from '../../platform/push/push-subscription';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/field';
import { Loading } from '../../ui/loading';
import { Notice } from '../../ui/notice';
import { useOnlineStatus } from '../../ui/use-online-status';

/*
 * "Reminders" in an installed app (docs/product/reminders.md): each reminder the app defines,
 * which the person turns on for themselves, at their own time, in their own time zone, with quiet
 * hours, and for reminders about their items, whether the notification names them. Loaded when
 * they open it; notifications are asked for only when they turn one on.
 */

const listed = z.object({
  reminders: z.array(reminderSchema.extend({ preferences: reminderPreferencesSchema.nullable() })),
  /** The names of the collections and fields the reminders are about, by id. */
  names: z.record(z.string(), z.string()).default({}),
});
type Listed = z.infer<typeof listed>['reminders'][number];
type Names = Readonly<Record<string, string>>;
const readListed = answerParser((value) => {
  const read = listed.safeParse(value);
  return read.success ? read.data : null;
});
const readSaved = answerParser((value) => {
  const next = (value as { next?: unknown } | null)?.next;
  return typeof next === 'number' || next === null ? { next } : null;
});

/** The creator's time of day, for the schedules that have one. */
const creatorTimeOf = (reminder: Reminder): string | null =>
  'time' in reminder.schedule ? reminder.schedule.time : null;

/**
 * "Every day at 20:00", "1 day before Due at 08:30", "Every day at 07:00, for Tasks where
 * {Stock} < 3": at the person's own time where the schedule has one.
 */
function describeSchedule(reminder: Reminder, time: string, names: Names): string {
  const schedule = 'time' in reminder.schedule ? { ...reminder.schedule, time } : reminder.schedule;
  const words = scheduleInWords(schedule, (id) =>
    typeof id === 'string' ? (names[id] ?? 'a date') : 'a date',
  );
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const deviceZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

function nextText(next: number | null, enabled: boolean): string {
  if (!enabled) return 'Off.';
  if (next === null) return 'On. Nothing is due yet.';
  const at = new Date(next).toLocaleString(undefined, {
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
  });
  return `On. Next reminder ${at}.`;
}

function ReminderForm({
  appId,
  reminder,
  names,
}: {
  appId: string;
  reminder: Listed;
  names: Names;
}) {
  const creatorTime = creatorTimeOf(reminder);
  const aboutItems = reminder.schedule.kind !== 'weekly';
  const chosen = reminder.preferences;
  const [enabled, setEnabled] = useState(chosen?.enabled ?? false);
  const [time, setTime] = useState(chosen?.time ?? creatorTime ?? '');
  const [showNames, setShowNames] = useState(chosen?.showRecordText ?? false);
  const [quietStart, setQuietStart] = useState(chosen?.quietHours?.start ?? '');
  const [quietEnd, setQuietEnd] = useState(chosen?.quietHours?.end ?? '');
  const [status, setStatus] = useState<{ tone: 'success' | 'danger'; text: string } | null>(null);
  const [saving, setSaving] = useState(false);

  async function save(event: FormEvent) {
    event.preventDefault();
    setSaving(true);
    setStatus(null);
    const preferences: ReminderPreferences = {
      enabled,
      timeZone: deviceZone(),
      ...(creatorTime !== null && time !== creatorTime ? { time } : {}),
      ...(aboutItems && showNames ? { showRecordText: true } : {}),
      ...(quietStart && quietEnd ? { quietHours: { start: quietStart, end: quietEnd } } : {}),
    };
    try {
      // Asked here, on the person's own click, and only when they turn a reminder on.
      if (enabled) await subscribeForApp(appId);
      const { next } = await apiSend(
        'PUT',
        `/api/apps/${appId}/reminders/${reminder.id}`,
        preferences,
        readSaved,
      );
      setStatus({ tone: 'success', text: nextText(next, enabled) });
    } catch (error) {
      setStatus({ tone: 'danger', text: describeError(error).message });
    } finally {
      setSaving(false);
    }
  }

  return (
    <form className="reminder" onSubmit={(event) => void save(event)}>
      <fieldset>
        <legend dir="auto">{reminder.title}</legend>
        {reminder.body && <p dir="auto">{reminder.body}</p>}
        <p className="reminder__when">{describeSchedule(reminder, time, names)}</p>
        <label className="reminder__switch">
          <input
            type="checkbox"
            role="switch"
            checked={enabled}
            onChange={(event) => setEnabled(event.currentTarget.checked)}
          />
          Remind me
        </label>
        {creatorTime !== null && (
          <TextField
            label="At"
            type="time"
            value={time}
            required
            onChange={(event) => setTime(event.currentTarget.value)}
            hint={`In your time zone, ${deviceZone()}.`}
          />
        )}
        {aboutItems && (
          <>
            <label className="reminder__switch">
              <input
                type="checkbox"
                role="switch"
                checked={showNames}
                onChange={(event) => setShowNames(event.currentTarget.checked)}
              />
              Show item names
            </label>
            <p className="reminder__hint">
              {showNames
                ? 'The items’ names appear in the notification, where anyone who sees your lock screen can read them.'
                : 'The notification says only how many items it is about, not what they are.'}
            </p>
          </>
        )}
        <div className="reminder__quiet">
          <TextField
            label="Quiet from"
            type="time"
            value={quietStart}
            onChange={(event) => setQuietStart(event.currentTarget.value)}
          />
          <TextField
            label="Quiet until"
            type="time"
            value={quietEnd}
            onChange={(event) => setQuietEnd(event.currentTarget.value)}
          />
        </div>
        <p className="reminder__hint">
          Nothing arrives in quiet hours; a reminder due then comes at their end.
        </p>
        <Button type="submit" variant="secondary" size="small" disabled={saving}>
          {saving ? 'Saving…' : 'Save'}
        </Button>
        {status && (
          <Notice tone={status.tone} live="polite">
            {status.text}
          </Notice>
        )}
      </fieldset>
    </form>
  );
}

export function RemindersPanel({ appId, signedIn }: { appId: string; signedIn: boolean }) {
  const online = useOnlineStatus();
  const resource = useApiGet(signedIn ? `/api/apps/${appId}/reminders` : null, readListed);
  if (!signedIn) {
    return (
      <Notice tone="info">
        Sign in to be reminded. Reminders arrive as this app’s notifications, even when it is
        closed.
      </Notice>
    );
  }
  if (pushAvailability() === 'unsupported') {
    return (
      <Notice tone="info">
        This browser cannot show an app’s notifications. On an iPhone or iPad, add the app to your
        Home Screen first, then turn reminders on from there.
      </Notice>
    );
  }
  if (resource.status === 'loading') return <Loading label="Reading your reminders…" />;
  if (resource.status === 'error') {
    return (
      <Notice tone={online ? 'danger' : 'offline'}>
        {online
          ? `${resource.message} `
          : 'You’re offline. Reminders you turned on still arrive; you can change them when you’re back online. '}
        <Button variant="ghost" size="small" onClick={resource.retry}>
          Try again
        </Button>
      </Notice>
    );
  }
  const { reminders, names } = resource.data;
  if (reminders.length === 0) return <p>This app has no reminders yet.</p>;
  return (
    <div className="reminders">
      {pushAvailability() === 'refused' && (
        <Notice tone="warning">
          Notifications are turned off for this site in your browser. Allow them in the site
          settings to get reminders.
        </Notice>
      )}
      {reminders.map((reminder) => (
        <ReminderForm key={reminder.id} appId={appId} reminder={reminder} names={names} />
      ))}
    </div>
  );
}

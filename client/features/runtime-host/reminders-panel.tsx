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
 * hours. Loaded when they open it; notifications are asked for only when they turn one on.
 */

const listed = z.object({
  reminders: z.array(reminderSchema.extend({ preferences: reminderPreferencesSchema.nullable() })),
});
type Listed = z.infer<typeof listed>['reminders'][number];
const readListed = answerParser((value) => {
  const read = listed.safeParse(value);
  return read.success ? read.data : null;
});
const readSaved = answerParser((value) => {
  const next = (value as { next?: unknown } | null)?.next;
  return typeof next === 'number' || next === null ? { next } : null;
});

/** "Every day at 20:00", "On Mon, Wed, Fri at 07:30": at the person's own time. */
function describeSchedule(reminder: Reminder, time: string): string {
  if (reminder.schedule.kind !== 'weekly') return '';
  const words = scheduleInWords({ ...reminder.schedule, time }, () => '');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const deviceZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

function nextText(next: number | null): string {
  if (next === null) return 'Off.';
  const at = new Date(next).toLocaleString(undefined, {
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
  });
  return `On. Next reminder ${at}.`;
}

function ReminderForm({ appId, reminder }: { appId: string; reminder: Listed }) {
  const creatorTime = reminder.schedule.kind === 'weekly' ? reminder.schedule.time : '09:00';
  const chosen = reminder.preferences;
  const [enabled, setEnabled] = useState(chosen?.enabled ?? false);
  const [time, setTime] = useState(chosen?.time ?? creatorTime);
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
      ...(time !== creatorTime ? { time } : {}),
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
      setStatus({ tone: 'success', text: nextText(next) });
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
        <p className="reminder__when">{describeSchedule(reminder, time)}</p>
        <label className="reminder__switch">
          <input
            type="checkbox"
            role="switch"
            checked={enabled}
            onChange={(event) => setEnabled(event.currentTarget.checked)}
          />
          Remind me
        </label>
        <TextField
          label="At"
          type="time"
          value={time}
          required
          onChange={(event) => setTime(event.currentTarget.value)}
          hint={`In your time zone, ${deviceZone()}.`}
        />
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
  const sent = resource.data.reminders.filter((r) => r.schedule.kind === 'weekly');
  if (sent.length === 0) return <p>This app has no reminders yet.</p>;
  return (
    <div className="reminders">
      {pushAvailability() === 'refused' && (
        <Notice tone="warning">
          Notifications are turned off for this site in your browser. Allow them in the site
          settings to get reminders.
        </Notice>
      )}
      {sent.map((reminder) => (
        <ReminderForm key={reminder.id} appId={appId} reminder={reminder} />
      ))}
    </div>
  );
}

import { useCallback, useEffect, useState } from 'react';
import { z } from 'zod';
import { EMAIL_DIGEST_CHOICES, type EmailDigestChoice } from '@pipit/protocol';
import { Button } from '../../ui/button';
import { SelectField } from '../../ui/field';
import { Loading } from '../../ui/loading';
import { Notice } from '../../ui/notice';
import { useOnlineStatus } from '../../ui/use-online-status';
import { apiGet, apiSend, describeError } from '../../platform/api/request';
import {
  PushRefusedError,
  pushAvailability,
  subscribeForPipit,
  unsubscribeForPipit,
} from '../../platform/push/push-subscription';

const settingsAnswer = z.object({
  emailDigest: z.enum(EMAIL_DIGEST_CHOICES),
  devices: z.number(),
  emailVerified: z.boolean(),
  digestTimeZone: z.string(),
});
type Settings = z.infer<typeof settingsAnswer>;

const DIGEST_LABELS: Record<EmailDigestChoice, string> = {
  when_no_push: 'Only when no device of mine has them on',
  always: 'Always, once a day',
  off: 'Never',
};

/**
 * The zone the daily email keeps to, in words: "your time" when it is this device's; otherwise
 * named, with how to change it (a choice made here sends this device's zone).
 */
function zoneName(zone: string): string {
  if (zone === Intl.DateTimeFormat().resolvedOptions().timeZone) return 'your time';
  const named = zone === 'UTC' ? 'UTC' : `${zone.replaceAll('_', ' ')} time`;
  return `${named} (choose again here to have it at 17:00 on this device’s clock)`;
}

const devicesInWords = (count: number) =>
  count === 0
    ? 'No device of yours has them on.'
    : count === 1
      ? 'One device of yours has them on.'
      : `${count} devices of yours have them on.`;

/**
 * What Pipit tells a creator about their apps (docs/product/reminders.md#creators-notifications):
 * push on this device, asked for only on the click, and the once-a-day email digest.
 */
export function CreatorNotifications() {
  const online = useOnlineStatus();
  const [settings, setSettings] = useState<Settings | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const load = useCallback(() => {
    apiGet('/api/account/creator-notifications', settingsAnswer).then(
      (answer) => {
        setSettings(answer);
        setError(null);
      },
      (e: unknown) => setError(describeError(e).message),
    );
  }, []);
  useEffect(load, [load]);

  const act = async (work: () => Promise<string>) => {
    setBusy(true);
    setStatus(null);
    try {
      setStatus(await work());
      setError(null);
      load();
    } catch (e) {
      // The browser's refusals say what to do in their own words; the server's come described.
      setError(e instanceof PushRefusedError ? e.message : describeError(e).message);
    } finally {
      setBusy(false);
    }
  };
  const turnOn = () =>
    act(async () => {
      await subscribeForPipit();
      return 'This device now gets Pipit’s notifications about your apps.';
    });
  const turnOff = () =>
    act(async () =>
      (await unsubscribeForPipit())
        ? 'This device no longer gets Pipit’s notifications.'
        : 'This device did not get Pipit’s notifications.',
    );
  const chooseDigest = (emailDigest: EmailDigestChoice) =>
    act(async () => {
      // The device's zone: the daily email comes at 17:00 on the person's clock.
      const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
      await apiSend(
        'PUT',
        '/api/account/creator-notifications',
        { emailDigest, timeZone },
        settingsAnswer,
      );
      return emailDigest === 'off' ? 'The email is off.' : 'Your choice of email is saved.';
    });

  const unsupported = pushAvailability() === 'unsupported';
  const refused = pushAvailability() === 'refused';
  return (
    <div className="creator-notifications" aria-labelledby="creator-notifications-title">
      <h3 id="creator-notifications-title">About your apps</h3>
      <p>
        Pipit tells you when someone adds you to an app, when another editor publishes one, and when
        an app of yours gets its first visitor of the day.
      </p>
      {error ? (
        <Notice tone={online ? 'warning' : 'offline'} live="alert">
          {online ? error : 'You’re offline. Your choices show once you’re back online.'}
        </Notice>
      ) : null}
      {!settings && !error ? <Loading label="Loading how Pipit tells you…" /> : null}
      {settings ? (
        <>
          <p className="settings-list__meta">{devicesInWords(settings.devices)}</p>
          {unsupported ? (
            <p>This browser cannot show notifications. Install Pipit to your home screen first.</p>
          ) : refused ? (
            <p>
              Notifications are turned off for Pipit in this browser. Allow them in the site
              settings, then come back.
            </p>
          ) : (
            <div className="creator-notifications__actions">
              <Button size="small" disabled={busy || !online} onClick={() => void turnOn()}>
                Notify me on this device
              </Button>
              <Button
                size="small"
                variant="secondary"
                disabled={busy || !online || settings.devices === 0}
                onClick={() => void turnOff()}
              >
                Stop on this device
              </Button>
            </div>
          )}
          <SelectField
            label="Email me a daily summary"
            hint={
              settings.emailVerified
                ? `One email a day at most, around 17:00 ${zoneName(settings.digestTimeZone)}, only when something happened.`
                : 'Confirm your email address first: the summary goes only to a confirmed address.'
            }
            value={settings.emailDigest}
            disabled={busy || !online}
            onChange={(event) => void chooseDigest(event.target.value as EmailDigestChoice)}
          >
            {EMAIL_DIGEST_CHOICES.map((choice) => (
              <option key={choice} value={choice}>
                {DIGEST_LABELS[choice]}
              </option>
            ))}
          </SelectField>
        </>
      ) : null}
      {status ? (
        <p role="status" className="settings-list__meta">
          {status}
        </p>
      ) : null}
    </div>
  );
}

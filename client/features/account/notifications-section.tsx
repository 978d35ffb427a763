import { useCallback, useEffect, useState } from 'react';
import { z } from 'zod';
import { Button } from '../../ui/button';
import { Loading } from '../../ui/loading';
import { Notice } from '../../ui/notice';
import { Section } from '../../ui/page';
import { useOnlineStatus } from '../../ui/use-online-status';
import { apiGet, apiSend, describeError } from '../../platform/api/request';
import { SpaceNotificationsList } from './space-notifications-list';
import { CreatorNotifications } from './creator-notifications';

const notifyingApps = z.object({
  apps: z.array(
    z.object({
      appId: z.string(),
      title: z.string(),
      reminders: z.array(z.object({ id: z.string(), title: z.string(), enabled: z.boolean() })),
      devices: z.number(),
    }),
  ),
});
type NotifyingApp = z.infer<typeof notifyingApps>['apps'][number];

function whatItSends(app: NotifyingApp): string {
  const on = app.reminders.filter((r) => r.enabled).map((r) => `“${r.title}”`);
  const reminders = on.length === 0 ? 'No reminder on' : `Reminders on: ${on.join(', ')}`;
  const devices =
    app.devices === 0 ? 'no device' : app.devices === 1 ? 'one device' : `${app.devices} devices`;
  return `${reminders} · may notify ${devices}`;
}

/**
 * Every app that may notify the person (docs/product/reminders.md): the reminders they turned on
 * and the devices subscribed, each app with a switch that stops it at once, on every device.
 */
export function NotificationsSection() {
  const online = useOnlineStatus();
  const [apps, setApps] = useState<NotifyingApp[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    apiGet('/api/account/notifications', notifyingApps).then(
      (answer) => {
        setApps(answer.apps);
        setError(null);
      },
      (e: unknown) => setError(describeError(e).message),
    );
  }, []);
  useEffect(load, [load]);

  const stop = async (app: NotifyingApp) => {
    try {
      await apiSend('DELETE', `/api/account/notifications/${app.appId}`, undefined, z.unknown());
      load();
    } catch (e) {
      setError(describeError(e).message);
    }
  };

  return (
    <Section title="Notifications" id="notifications">
      {error ? (
        <Notice tone={online ? 'warning' : 'offline'} live="alert">
          {online
            ? error
            : 'You’re offline. The apps that may notify you show once you’re back online.'}
        </Notice>
      ) : null}
      {!apps && !error ? <Loading label="Loading the apps that may notify you…" /> : null}
      {apps && apps.length === 0 ? (
        <p>
          No app may notify you. To be reminded, open an app and turn a reminder on under Reminders.
        </p>
      ) : null}
      {apps && apps.length > 0 ? (
        <ul className="settings-list" aria-label="Apps that may notify you">
          {apps.map((app) => (
            <li key={app.appId}>
              <div>
                <strong dir="auto">{app.title}</strong>
                <p className="settings-list__meta">{whatItSends(app)}</p>
              </div>
              <Button
                size="small"
                variant="secondary"
                aria-label={`Turn off notifications from ${app.title}`}
                onClick={() => void stop(app)}
              >
                Turn off
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      <SpaceNotificationsList />
      <CreatorNotifications />
    </Section>
  );
}

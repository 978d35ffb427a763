import { useCallback, useEffect, useState } from 'react';
import type { SpaceActivityList } from '@pipit/protocol';
import { describeError } from '../../platform/api/request';
import { fetchSpaceNotificationList, setSpaceNotifications } from '../../platform/spaces';
import { Button } from '../../ui/button';
import { Loading } from '../../ui/loading';
import { Notice } from '../../ui/notice';
import { useOnlineStatus } from '../../ui/use-online-status';

type Listed = SpaceActivityList['spaces'][number];

/**
 * The spaces that tell the person what others add and complete there
 * (docs/product/reminders.md#space-activity), each with a switch that turns it off at once. It
 * is turned on from the space's own screen, in its app.
 */
export function SpaceNotificationsList() {
  const online = useOnlineStatus();
  const [spaces, setSpaces] = useState<Listed[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    fetchSpaceNotificationList().then(
      (answer) => {
        setSpaces(answer.spaces);
        setError(null);
      },
      (e: unknown) => setError(describeError(e).message),
    );
  }, []);
  useEffect(load, [load]);

  const stop = async (space: Listed) => {
    try {
      await setSpaceNotifications(space.spaceId, { enabled: false, showNames: space.showNames });
      load();
    } catch (e) {
      setError(describeError(e).message);
    }
  };

  return (
    <div>
      <h3>Shared spaces</h3>
      {error ? (
        <Notice tone={online ? 'warning' : 'offline'} live="alert">
          {online
            ? error
            : 'You’re offline. The spaces that notify you show once you’re back online.'}
        </Notice>
      ) : null}
      {!spaces && !error ? <Loading label="Loading the spaces that notify you…" /> : null}
      {spaces && spaces.length === 0 ? (
        <p>
          No space notifies you. To be told when others add or complete items, open the space in its
          app and turn notifications on there.
        </p>
      ) : null}
      {spaces && spaces.length > 0 ? (
        <ul className="settings-list" aria-label="Spaces that notify you">
          {spaces.map((space) => (
            <li key={space.spaceId}>
              <div>
                <strong dir="auto">{space.spaceName}</strong>
                <p className="settings-list__meta" dir="auto">
                  {space.appTitle} · {space.showNames ? 'with item names' : 'without item names'}
                </p>
              </div>
              <Button
                size="small"
                variant="secondary"
                aria-label={`Turn off notifications from ${space.spaceName}`}
                onClick={() => void stop(space)}
              >
                Turn off
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

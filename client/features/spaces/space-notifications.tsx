import { useCallback, useEffect, useState } from 'react';
import type { SpaceActivitySettings, SpaceSummary } from '@pipit/protocol';
import { describeError } from '../../platform/api/request';
import { pushAvailability, subscribeForApp } from '../../platform/push/push-subscription';
import { fetchSpaceNotifications, setSpaceNotifications } from '../../platform/spaces';
import { Button } from '../../ui/button';
import { Notice } from '../../ui/notice';

/*
 * A space's activity, in the space's own screen (docs/product/reminders.md#space-activity): each
 * person in it chooses to be told when others add or complete items, one notification per burst.
 * Off until they turn it on; the browser asks for notifications only on that click.
 */

type State =
  | { kind: 'loading' }
  | { kind: 'ready'; settings: SpaceActivitySettings }
  | { kind: 'failed'; message: string };

export function SpaceNotifications({ space, online }: { space: SpaceSummary; online: boolean }) {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const load = useCallback(() => {
    fetchSpaceNotifications(space.id).then(
      (settings) => setState({ kind: 'ready', settings }),
      (error: unknown) => setState({ kind: 'failed', message: describeError(error).message }),
    );
  }, [space.id]);
  useEffect(() => {
    if (online) load();
  }, [online, load]);

  const choose = async (enabled: boolean, showNames: boolean) => {
    setSaving(true);
    setProblem(null);
    try {
      // Asked here, on the person's own click, and only when they turn it on.
      if (enabled) await subscribeForApp(space.appId);
      const settings = await setSpaceNotifications(space.id, { enabled, showNames });
      setState({ kind: 'ready', settings });
    } catch (error) {
      setProblem(describeError(error).message);
    } finally {
      setSaving(false);
    }
  };

  const headingId = `activity-${space.id}`;
  const available = pushAvailability();
  return (
    <section className="spaces-dialog__section" aria-labelledby={headingId}>
      <h3 id={headingId}>Notifications</h3>
      {!online ? (
        <p className="spaces-dialog__muted">
          You’re offline. Your notification choice for this space shows when you’re back online.
        </p>
      ) : available === 'unsupported' ? (
        <p className="spaces-dialog__muted">
          This browser cannot show an app’s notifications. On an iPhone or iPad, add the app to your
          Home Screen first.
        </p>
      ) : state.kind === 'loading' ? (
        <p className="spaces-dialog__muted" role="status">
          Loading your notification choice…
        </p>
      ) : state.kind === 'failed' ? (
        <Notice tone="danger">
          {state.message}{' '}
          <Button variant="secondary" size="small" onClick={load}>
            Try again
          </Button>
        </Notice>
      ) : (
        <>
          <label className="spaces-dialog__switch">
            <input
              type="checkbox"
              role="switch"
              checked={state.settings.enabled}
              disabled={saving}
              onChange={(event) =>
                void choose(event.currentTarget.checked, state.settings.showNames)
              }
            />
            Tell me when others add or complete items
          </label>
          <label className="spaces-dialog__switch">
            <input
              type="checkbox"
              checked={state.settings.showNames}
              disabled={saving || !state.settings.enabled}
              onChange={(event) => void choose(true, event.currentTarget.checked)}
            />
            Show item names in notifications
          </label>
          <p className="spaces-dialog__muted">
            One notification for a few changes in a row, never for your own. Without names, it says
            only how many items.
          </p>
          {available === 'refused' ? (
            <Notice tone="warning">
              Notifications are turned off for this site in your browser. Allow them in the site
              settings to be told.
            </Notice>
          ) : null}
        </>
      )}
      {problem ? (
        <Notice tone="danger" live="alert">
          {problem}
        </Notice>
      ) : null}
    </section>
  );
}

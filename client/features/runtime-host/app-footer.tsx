import type { ReadDefinition } from '@pipit/app-definition';
import { lazy, Suspense, useState } from 'react';
import type { AppDataView } from '../../sync/visitor-data/app-data';
import { Loading } from '../../ui/loading';

/** Read when the person opens "Your data on this device" (device-panel.tsx). */
const DevicePanel = lazy(() =>
  import('./device-panel').then((module) => ({ default: module.DevicePanel })),
);
/** A person's choices for the app's reminders, loaded when they open them. */
const RemindersPanel = lazy(() =>
  import('./reminders-panel').then((module) => ({ default: module.RemindersPanel })),
);

/**
 * What an installed app keeps under it (app-host.tsx): the app's reminders, when it has any, and
 * "Your data on this device". Loaded after the app's first screen, as neither is needed to show it
 * (the installed app's first visit is budgeted, docs/performance.md).
 */
export function AppFooter({
  appId,
  definition,
  visitorData,
  signedIn,
}: {
  appId: string;
  definition: ReadDefinition;
  visitorData: AppDataView;
  signedIn: boolean;
}) {
  const [deviceOpen, setDeviceOpen] = useState(false);
  const [remindersOpen, setRemindersOpen] = useState(false);
  return (
    <footer>
      {definition.reminders.length > 0 ? (
        <details
          className="app-host__device"
          onToggle={(event) => setRemindersOpen(event.currentTarget.open)}
        >
          <summary>Reminders</summary>
          {remindersOpen && (
            <Suspense fallback={<Loading label="Reading your reminders…" />}>
              <RemindersPanel appId={appId} signedIn={signedIn} />
            </Suspense>
          )}
        </details>
      ) : null}
      <details
        className="app-host__device"
        onToggle={(event) => setDeviceOpen(event.currentTarget.open)}
      >
        <summary>Your data on this device</summary>
        {deviceOpen && (
          <Suspense fallback={<Loading label="Reading this device…" />}>
            <DevicePanel sync={visitorData.sync} definition={definition} data={visitorData.data} />
          </Suspense>
        )}
      </details>
    </footer>
  );
}

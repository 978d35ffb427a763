import type { ReadDefinition } from '@pipit/app-definition';
import { type RuntimeUser, themeStyle } from '@pipit/runtime';
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import type { SpaceSummary } from '@pipit/protocol';
import type { AppDataView } from '../../sync/visitor-data/app-data';
import { chooseSpace } from '../../sync/spaces/space-list';
import { AppIcon } from '../../ui/app-icon';
import { Loading } from '../../ui/loading';
import { useAppColorMode } from '../../ui/color-mode';
import { describeDataSync } from '../../sync/visitor-data/status';
import { SyncIndicator } from '../../ui/sync-indicator';
import { askToPersist, isStandalone } from '../../sync/core/device-storage';
import { AppArea } from './app-area';
import type { EndedSpace, SpacesState } from './use-spaces';

const SpacesDialog = lazy(() =>
  import('./spaces-dialog').then((module) => ({ default: module.SpacesDialog })),
);

/** Only an app with AI actions loads its AI host (ai-app-area.tsx). */
const AiAppArea = lazy(() =>
  import('./ai-app-area').then((module) => ({ default: module.AiAppArea })),
);

/** Read when the person opens "Your data on this device" (device-panel.tsx). */
const DevicePanel = lazy(() =>
  import('./device-panel').then((module) => ({ default: module.DevicePanel })),
);

/** Spaces in an app with shared collections (docs/product/spaces.md). */
export interface HostSpaces {
  state: SpacesState;
  account: { id: string; username: string } | null;
  onCreated(moveItems: boolean): void;
}
import './runtime-host.css';

/**
 * A published app running full screen with the visitor's data (`/apps/{id}/pwa`): a slim bar with
 * the app's icon and name (the page's h1; each screen's title is its heading below) and a small
 * note of where the data is saved, whatever the page adds under it (the update offer), and the
 * runtime. Everything is in the app's own colours and light or dark mode, not Pipit's.
 */
export function AppHost({
  definition,
  visitorData,
  user,
  appId,
  accountId,
  notice,
  spaces = null,
}: {
  definition: ReadDefinition;
  visitorData: AppDataView;
  /** Null: the app has no shared collections. */
  spaces?: HostSpaces | null;
  user: RuntimeUser | null;
  appId: string;
  /** The signed-in visitor's account (their AI runs queued on this device), null when anonymous. */
  accountId: string | null;
  /** Shown above the app (e.g. "New version available"). */
  notice?: ReactNode;
}) {
  const colorMode = useAppColorMode(definition.theme.mode);
  const [deviceOpen, setDeviceOpen] = useState(false);
  // Running installed, the browser is asked to keep the app's storage at once: it grants it to an
  // app the person chose to keep (anywhere else the panel's button asks).
  useEffect(() => {
    if (isStandalone()) void askToPersist();
  }, []);
  const [spacesOpen, setSpacesOpen] = useState(false);
  const area = { definition, visitorData, colorMode, user };
  return (
    <div className="app-host" style={themeStyle(definition.theme, colorMode)}>
      <header className="app-host__bar">
        <AppIcon icon={definition.meta.icon} size={32} />
        <h1 className="app-host__title" dir="auto">
          {definition.meta.title}
        </h1>
        <SyncIndicator {...describeDataSync(visitorData.sync)} />
        {spaces ? (
          <SpaceButton
            name={spaces.state.active?.name ?? null}
            presence={visitorData.presence.map((person) => person.name)}
            onOpen={() => setSpacesOpen(true)}
          />
        ) : null}
      </header>
      {notice}
      {spaces ? (
        <SpaceNotices
          spaces={spaces}
          ownListEmpty={visitorData.phase === 'ready' && visitorData.privateShared === 0}
          onShow={(spaceId) => spaces.account && chooseSpace(spaces.account.id, appId, spaceId)}
          onChoose={() => setSpacesOpen(true)}
        />
      ) : null}
      {spaces && spacesOpen ? (
        <Suspense fallback={null}>
          <SpacesDialog
            appId={appId}
            appTitle={definition.meta.title}
            account={spaces.account}
            spaces={spaces.state}
            privateSharedItems={visitorData.privateShared}
            onCreated={(move) => {
              spaces.onCreated(move);
            }}
            onClose={() => setSpacesOpen(false)}
          />
        </Suspense>
      ) : null}
      {definition.aiActions.length > 0 ? (
        <Suspense
          fallback={
            <main className="app-host__main" id="main">
              <Loading label="Opening the app…" />
            </main>
          }
        >
          <AiAppArea {...area} appId={appId} accountId={accountId} />
        </Suspense>
      ) : (
        <AppArea {...area} />
      )}
      <footer>
        <details
          className="app-host__device"
          onToggle={(event) => setDeviceOpen(event.currentTarget.open)}
        >
          <summary>Your data on this device</summary>
          {deviceOpen && (
            <Suspense fallback={<Loading label="Reading this device…" />}>
              <DevicePanel sync={visitorData.sync} />
            </Suspense>
          )}
        </details>
      </footer>
    </div>
  );
}

/**
 * Which data the app shows (the person's own, or a space's) and who else is in the space now; opens
 * the spaces dialog.
 */
function SpaceButton({
  name,
  presence,
  onOpen,
}: {
  name: string | null;
  presence: string[];
  onOpen(): void;
}) {
  return (
    <div className="app-host__space">
      <button
        type="button"
        className="app-host__space-button"
        onClick={onOpen}
        aria-haspopup="dialog"
      >
        <span className="visually-hidden">Showing </span>
        <span dir="auto" className="app-host__space-name">
          {name ?? 'My own list'}
        </span>
        <span className="app-host__space-share" aria-hidden="true">
          Share
        </span>
        <span className="visually-hidden">. Share with people</span>
      </button>
      {presence.length > 0 ? (
        <span className="app-host__presence">
          {presence.length === 1
            ? `${presence[0]} is here`
            : `${presence.slice(0, 2).join(', ')}${presence.length > 2 ? ` +${presence.length - 2}` : ''} are here`}
        </span>
      ) : null}
    </div>
  );
}

/**
 * What the app says about the person's lists, above it: why a space is gone, what became of an
 * ended one, where the items of an empty-looking own list are. A landmark of its own when there is
 * anything to say.
 */
function SpaceNotices({
  spaces,
  ownListEmpty,
  onShow,
  onChoose,
}: {
  spaces: HostSpaces;
  ownListEmpty: boolean;
  onShow(spaceId: string): void;
  onChoose(): void;
}) {
  const { state } = spaces;
  const ownNote =
    spaces.account !== null && !state.active && state.spaces.length > 0 && ownListEmpty;
  if (!state.notice && !ownNote && state.endings.length === 0) return null;
  return (
    <aside className="app-host__notices" aria-label="About your lists">
      {state.notice ? (
        <div className="app-host__notice" role="status">
          <p>{state.notice}</p>
          <button type="button" className="app-host__link" onClick={state.dismissNotice}>
            Dismiss
          </button>
        </div>
      ) : null}
      {ownNote ? <OwnListNote spaces={state.spaces} onShow={onShow} onChoose={onChoose} /> : null}
      {state.endings.map((ending) => (
        <EndedSpaceNotice
          key={ending.id}
          ending={ending}
          onKeep={() => state.keepEnded(ending.id)}
          onRemove={() => state.removeEnded(ending.id)}
        />
      ))}
    </aside>
  );
}

/**
 * The person's own list is shown, and its shared part is empty while they are in spaces: not a
 * loss (a new space took their items, or they only ever added in spaces), so it says where the
 * items are and leads there.
 */
function OwnListNote({
  spaces,
  onShow,
  onChoose,
}: {
  spaces: readonly SpaceSummary[];
  onShow(spaceId: string): void;
  onChoose(): void;
}) {
  const [only] = spaces;
  return (
    <div className="app-host__notice" role="note">
      <p>
        This is your own list, and it’s empty. Your shared items are in{' '}
        {spaces.length === 1 && only ? (
          <>
            “<span dir="auto">{only.name}</span>”
          </>
        ) : (
          `your ${spaces.length} spaces`
        )}
        .
      </p>
      <span className="app-host__notice-actions">
        {spaces.length === 1 && only ? (
          <button type="button" className="app-host__link" onClick={() => onShow(only.id)}>
            Show “<span dir="auto">{only.name}</span>”
          </button>
        ) : (
          <button type="button" className="app-host__link" onClick={onChoose}>
            Choose a list
          </button>
        )}
      </span>
    </div>
  );
}

const ENDED_BECAUSE: Record<EndedSpace['why'], string> = {
  deleted: 'was deleted by its owner',
  owner_left: 'was deleted: its owner deleted their account',
  app_deleted: 'ended: the app was deleted',
  removed: 'is no longer shared with you: its owner took you out, and its items left this device',
};

/**
 * A space the person was in that its owner deleted: its items still on this device can become the
 * person's own, or go.
 */
function EndedSpaceNotice({
  ending,
  onKeep,
  onRemove,
}: {
  ending: EndedSpace;
  onKeep(): Promise<void>;
  onRemove(): Promise<void>;
}) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const run = (action: () => Promise<void>) => {
    setBusy(true);
    setProblem(null);
    action().catch((error: unknown) => {
      setBusy(false);
      setProblem(error instanceof Error ? error.message : 'That didn’t work. Try again.');
    });
  };
  const items = ending.items === 1 ? '1 item is' : `${ending.items} items are`;
  return (
    <div className="app-host__notice" role="status">
      <p>
        “<span dir="auto">{ending.name}</span>” {ENDED_BECAUSE[ending.why]}.
        {ending.items > 0 ? ` Its ${items} still on this device.` : ''}
        {problem ? ` ${problem}` : ''}
      </p>
      <span className="app-host__notice-actions">
        {ending.items > 0 ? (
          <>
            <button
              type="button"
              className="app-host__link"
              disabled={busy}
              onClick={() => run(onKeep)}
            >
              Keep them in my list
            </button>
            <button
              type="button"
              className="app-host__link"
              disabled={busy}
              onClick={() => run(onRemove)}
            >
              Remove them
            </button>
          </>
        ) : (
          <button
            type="button"
            className="app-host__link"
            disabled={busy}
            onClick={() => run(onRemove)}
          >
            OK
          </button>
        )}
      </span>
    </div>
  );
}

import type { SpaceSummary } from '@pipit/protocol';
import { type ReactNode, lazy, Suspense, useEffect, useRef, useState } from 'react';
import type { AppDataView } from '../../sync/visitor-data/app-data';
import { chooseSpace } from '../../sync/spaces/space-list';
import { type EndedSpace, type SpacesState, useSpaces } from './use-spaces';
import './app-spaces.css';

const SpacesDialog = lazy(() =>
  import('./spaces-dialog').then((module) => ({ default: module.SpacesDialog })),
);

/**
 * Spaces in a running app with shared collections (docs/product/spaces.md): the button in the app's
 * bar (which list is shown, who else is here), the notices above the app, and the spaces dialog.
 * The installed app's entry hands this component to the runtime host
 * (client/features/runtime-host/spaces-slot.ts), which lays out the parts it gives.
 */
export function AppSpaces({
  appId,
  appTitle,
  account,
  visitorData,
  children,
}: {
  appId: string;
  appTitle: string;
  account: { id: string; username: string } | null;
  visitorData: AppDataView;
  children(parts: { button: ReactNode; notices: ReactNode; dialog: ReactNode }): ReactNode;
}) {
  const accountId = account?.id ?? null;
  const state = useSpaces({ appId, accountId, enabled: true, spaceSync: visitorData.spaceSync });
  const [open, setOpen] = useState(false);
  // A space just made: the person's private items of the shared collections go into it once open.
  const moveWanted = useRef(false);
  useEffect(() => {
    if (!moveWanted.current || visitorData.phase !== 'ready' || !visitorData.spaceSync) return;
    moveWanted.current = false;
    try {
      visitorData.moveIntoSpace();
    } catch (error) {
      console.warn('Could not move your items into the space:', error);
    }
  }, [visitorData]);
  return children({
    button: (
      <SpaceButton
        name={state.active?.name ?? null}
        presence={visitorData.presence.map((person) => person.name)}
        onOpen={() => setOpen(true)}
      />
    ),
    notices: (
      <SpaceNotices
        state={state}
        signedIn={account !== null}
        ownListEmpty={visitorData.phase === 'ready' && visitorData.privateShared === 0}
        onShow={(spaceId) => accountId && chooseSpace(accountId, appId, spaceId)}
        onChoose={() => setOpen(true)}
      />
    ),
    dialog: open ? (
      <Suspense fallback={null}>
        <SpacesDialog
          appId={appId}
          appTitle={appTitle}
          account={account}
          spaces={state}
          privateSharedItems={visitorData.privateShared}
          onCreated={(move) => {
            moveWanted.current = move;
          }}
          onClose={() => setOpen(false)}
        />
      </Suspense>
    ) : null,
  });
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
  state,
  signedIn,
  ownListEmpty,
  onShow,
  onChoose,
}: {
  state: SpacesState;
  signedIn: boolean;
  ownListEmpty: boolean;
  onShow(spaceId: string): void;
  onChoose(): void;
}) {
  const ownNote = signedIn && !state.active && state.spaces.length > 0 && ownListEmpty;
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

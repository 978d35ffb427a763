import type { ReadDefinition } from '@pipit/app-definition';
import { type Publication, type Visibility, VISIBILITIES } from '@pipit/protocol';
import { useEffect, useId, useRef, useState } from 'react';
import type { SyncState } from '../../../sync/core/sync-state';
import { Button } from '../../../ui/button';
import { formatDate } from '../../../ui/format-time';
import { Notice } from '../../../ui/notice';
import { useOnlineStatus } from '../../../ui/use-online-status';
import { describeError } from '../../../platform/api/request';
import { useResendVerification } from '../../../platform/session/resend-verification';
import { useSession } from '../../../platform/session/session';
import { useEditor } from '../common/editor-context';
import { EditorDialog } from '../common/editor-dialog';
import { getPublication, publish, setVisibility, unpublish } from './publish-api';
import { type ProblemTarget, resolveProblems } from './publish-problems';
import { PublishStep, type Step } from './publish-step';
import { SincePublished } from './since-published';
import './publish-panel.css';

const VISIBILITY_TEXT: Record<Visibility, { label: string; hint: string }> = {
  public: { label: 'Public', hint: 'Anyone can find it in Explore and on your profile.' },
  unlisted: {
    label: 'Unlisted',
    hint: 'Anyone with the link can open and install it; it isn’t listed.',
  },
  private: { label: 'Private', hint: 'Only you and the people you share it with can open it.' },
};

function status(publication: Publication): string {
  const latest = publication.latestVersion;
  if (latest === null) return 'Draft — never published.';
  if (!publication.published) return `Unpublished — the last version was ${latest}.`;
  return `Published · version ${latest} · ${VISIBILITY_TEXT[publication.visibility].label}`;
}

/**
 * Publishing an app (docs/product/routes.md, states.md): its state, visibility, Publish with
 * progress and problems that lead to where they are, the versions, Unpublish. Owner only; everyone
 * else reads the state.
 */
export function PublishPanel({
  appId,
  isOwner,
  sync,
  onClose,
}: {
  appId: string;
  isOwner: boolean;
  sync: SyncState;
  onClose(): void;
}) {
  const online = useOnlineStatus();
  const { definition, selectScreen, selectComponent, setPropertiesTab, openReminder } = useEditor();
  const groupId = useId();
  const confirmId = useId();
  const { account } = useSession();
  const resend = useResendVerification();
  const flow = usePublishing(appId, online, sync, definition);
  const { publication, loadError, step, setStep, busy } = flow;
  // The server refuses to publish for an unconfirmed email. Say so before the owner
  // tries, with a way to get the link again; the panel learns of a confirmation made in another
  // tab when this one is shown or focused again (client/platform/session/session.ts).
  const unconfirmed = isOwner && account !== null && !account.emailVerified;

  const goTo = (target: ProblemTarget) => {
    if (target.kind === 'tab') setPropertiesTab(target.tab);
    else if (target.kind === 'reminder') openReminder(target.reminderId);
    else {
      selectScreen(target.screenId);
      if (target.kind === 'component') selectComponent(target.componentId);
    }
    onClose();
  };

  return (
    <EditorDialog title="Publish" onClose={onClose}>
      {!online ? (
        <Notice tone="offline" title="Publishing needs a connection">
          <p>Your edits are saved on this device. Publish when you’re back online.</p>
        </Notice>
      ) : loadError ? (
        <Notice tone="danger" live="alert">
          <p>{loadError}</p>
        </Notice>
      ) : null}

      {unconfirmed ? (
        <ConfirmEmailNotice
          email={account.email}
          confirmId={confirmId}
          online={online}
          resend={resend}
        />
      ) : null}

      <p className="publish__status" data-testid="publish-status">
        {publication
          ? status(publication)
          : online && !loadError
            ? 'Loading…'
            : 'The publishing state shows when you’re online.'}
      </p>

      {publication ? (
        <VisibilityField
          groupId={groupId}
          visibility={flow.visibility}
          disabled={!isOwner || busy || !online}
          onChange={(value) => void flow.changeVisibility(value)}
        />
      ) : null}

      {publication?.latestVersion && online && account ? (
        <SincePublished
          appId={appId}
          owner={account.id}
          version={publication.latestVersion}
          definition={definition}
        />
      ) : null}

      {isOwner ? (
        <PublishActions
          flow={flow}
          online={online}
          blocked={!online || !publication || busy || flow.syncBlocked || unconfirmed}
          describedBy={unconfirmed ? confirmId : undefined}
        />
      ) : (
        <p className="publish__hint">Only the app’s owner can publish it or change who sees it.</p>
      )}

      <PublishStep
        step={flow.publishing ? { kind: 'busy' } : step}
        appId={appId}
        sync={sync}
        onGo={goTo}
        onUnpublish={() => void flow.runUnpublish()}
        onCancel={() => setStep({ kind: 'idle' })}
      />

      {publication && publication.versions.length > 0 ? (
        <VersionList versions={publication.versions} />
      ) : null}
    </EditorDialog>
  );
}

/**
 * The publication as the server has it (asked again when the connection comes back), the
 * visibility chosen, and the step of publishing, changing the visibility or unpublishing.
 */
function usePublishing(
  appId: string,
  online: boolean,
  sync: SyncState,
  definition: ReadDefinition,
) {
  const [publication, setPublication] = useState<Publication | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [chosen, setChosen] = useState<Visibility | null>(null);
  const [step, setStep] = useState<Step>({ kind: 'idle' });

  useEffect(() => {
    if (!online) return;
    let live = true;
    getPublication(appId).then(
      (answer) => live && setPublication(answer),
      (error: unknown) => live && setLoadError(describeError(error).message),
    );
    return () => {
      live = false;
    };
  }, [appId, online]);

  // A first publication is public unless the owner picks otherwise (the server's default too).
  const visibility =
    chosen ??
    (publication && publication.latestVersion !== null ? publication.visibility : 'public');
  const saved = sync.kind === 'saved';
  const syncBlocked = sync.kind === 'offline' || sync.kind === 'error';
  const publishing = step.kind === 'waiting' && saved;
  const busy = step.kind === 'waiting' || step.kind === 'busy';

  // The server publishes what it has stored, so Publish waits until the last edits are there
  // ("saved"), then sends; a click while they are saved sends at once.
  const sending = useRef(false);
  useEffect(() => {
    if (step.kind !== 'waiting' || !saved || sending.current) return;
    sending.current = true;
    void publish(appId, visibility).then((outcome) => {
      sending.current = false;
      if (outcome.ok) {
        setPublication(outcome.publication);
        setChosen(null);
        setStep({ kind: 'published', version: outcome.publication.latestVersion ?? 1 });
      } else if ('problems' in outcome) {
        setStep({ kind: 'invalid', problems: resolveProblems(definition, outcome.problems) });
      } else {
        setStep({ kind: 'message', tone: 'danger', text: outcome.message });
      }
    });
  }, [step.kind, saved, appId, visibility, definition]);

  const changeVisibility = async (next: Visibility) => {
    setChosen(next);
    // Before the first publication the choice goes with it; afterwards it applies at once.
    if (!publication || publication.latestVersion === null) return;
    setStep({ kind: 'busy' });
    try {
      setPublication(await setVisibility(appId, next));
      setChosen(null);
      setStep({
        kind: 'message',
        tone: 'success',
        text: `It is now ${VISIBILITY_TEXT[next].label.toLowerCase()}.`,
      });
    } catch (error) {
      setChosen(null);
      setStep({ kind: 'message', tone: 'danger', text: describeError(error).message });
    }
  };

  const runUnpublish = async () => {
    setStep({ kind: 'busy' });
    try {
      setPublication(await unpublish(appId));
      setStep({
        kind: 'message',
        tone: 'success',
        text: 'Unpublished. Visitors can no longer open it; publish again whenever you like.',
      });
    } catch (error) {
      setStep({ kind: 'message', tone: 'danger', text: describeError(error).message });
    }
  };

  return {
    publication,
    loadError,
    visibility,
    step,
    setStep,
    syncBlocked,
    publishing,
    busy,
    changeVisibility,
    runUnpublish,
  };
}

/** An owner whose email is not confirmed yet cannot publish: why, and the link again. */
function ConfirmEmailNotice({
  email,
  confirmId,
  online,
  resend,
}: {
  email: string;
  /** The id of the words Publish is described by. */
  confirmId: string;
  online: boolean;
  resend: ReturnType<typeof useResendVerification>;
}) {
  return (
    <Notice tone="warning" title="Confirm your email address to publish">
      <p id={confirmId}>
        We sent a link to <strong>{email}</strong>. Open it, then publish from here: this panel
        notices by itself.
      </p>
      {resend.sent ? (
        <p role="status">A new link is on its way.</p>
      ) : (
        <Button
          size="small"
          variant="secondary"
          className="publish__resend"
          disabled={resend.pending || !online}
          onClick={resend.send}
        >
          {resend.pending ? 'Sending…' : 'Send the confirmation email again'}
        </Button>
      )}
      {resend.error ? <p role="alert">{resend.error}</p> : null}
    </Notice>
  );
}

/** Public, unlisted or private, each with what it means. */
function VisibilityField({
  groupId,
  visibility,
  disabled,
  onChange,
}: {
  /** The radio group's name, and the prefix of its hints' ids. */
  groupId: string;
  visibility: Visibility;
  disabled: boolean;
  onChange(value: Visibility): void;
}) {
  return (
    <fieldset className="publish__visibility" disabled={disabled}>
      <legend className="field__label">Visibility</legend>
      {VISIBILITIES.map((value) => (
        <label key={value} className="publish__option">
          <input
            type="radio"
            name={groupId}
            value={value}
            checked={visibility === value}
            aria-describedby={`${groupId}-${value}`}
            onChange={() => onChange(value)}
          />
          <span>
            <strong>{VISIBILITY_TEXT[value].label}</strong>
            <span className="publish__hint" id={`${groupId}-${value}`}>
              {VISIBILITY_TEXT[value].hint}
            </span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}

/** The owner's Publish (the next version's number, or how far it got) and Unpublish. */
function PublishActions({
  flow,
  online,
  blocked,
  describedBy,
}: {
  flow: ReturnType<typeof usePublishing>;
  online: boolean;
  /** Publish can't be pressed: offline, not loaded, busy, not synced or unconfirmed. */
  blocked: boolean;
  describedBy: string | undefined;
}) {
  const { publication, step, setStep, publishing, busy } = flow;
  const next = (publication?.versions.reduce((max, v) => Math.max(max, v.number), 0) ?? 0) + 1;
  return (
    <div className="publish__actions">
      <Button
        onClick={() => setStep({ kind: 'waiting' })}
        disabled={blocked}
        aria-describedby={describedBy}
      >
        {publishing
          ? 'Publishing…'
          : step.kind === 'waiting'
            ? 'Waiting to publish…'
            : `Publish version ${next}`}
      </Button>
      {publication?.published ? (
        <Button
          variant="ghost"
          disabled={!online || busy}
          onClick={() => setStep({ kind: 'confirm-unpublish' })}
        >
          Unpublish
        </Button>
      ) : null}
    </div>
  );
}

/** The versions published, newest first. */
function VersionList({ versions }: { versions: Publication['versions'] }) {
  return (
    <>
      <h3 className="publish__heading">Versions</h3>
      <ol className="publish__versions" reversed>
        {[...versions]
          .sort((a, b) => b.number - a.number)
          .map((version) => (
            <li key={version.number}>
              Version {version.number} · {formatDate(version.publishedAt)} · by{' '}
              {version.publisher.displayName || version.publisher.username}
            </li>
          ))}
      </ol>
    </>
  );
}

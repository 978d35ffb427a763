import { useNavigate } from '@tanstack/react-router';
import {
  type AccountDeletionPreview,
  accountDeletionPreviewSchema,
  accountSchema,
  type SessionInfo,
  sessionListSchema,
} from '@pipit/protocol';
import { type ReactNode, useCallback, useEffect, useId, useState } from 'react';
import { z } from 'zod';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/field';
import { Loading } from '../../ui/loading';
import { dateAndTime } from '../../ui/format-time';
import { Notice } from '../../ui/notice';
import { FORM_ERROR_ATTRIBUTE, OnlineForm } from '../../ui/online-form';
import { Page, Section } from '../../ui/page';
import { Segmented } from '../../ui/segmented';
import { apiGet, apiSend, describeError } from '../../platform/api/request';
import { useSubmit } from '../../platform/api/use-submit';
import { THEME_OPTIONS, useThemePreference } from '../../platform/theme-preference';
import { NewPasswordField } from './new-password-field';
import { DurabilityPanel } from '../../ui/durability-panel';
import { useDurability } from '../../sync/core/device-storage';
import { useLocalApps } from '../../sync/app-document/local-apps';
import { listedSync } from '../../sync/core/sync-status';
import { useOnlineStatus } from '../../ui/use-online-status';
import { setAccount, useSession } from '../../platform/session/session';
import { noteAccountDeleted } from '../../platform/session/farewell';
import { type DeletionProblems, deletionProblems } from './delete-checks';
import { NotificationsSection } from './notifications-section';
import './account-pages.css';

/** A settings form: its error and its confirmation sit just above the button. */
function SettingsForm(props: {
  legend: string;
  onSubmit: () => void;
  pending: boolean;
  submitLabel: string;
  error: string | null;
  done?: ReactNode;
  children: ReactNode;
  danger?: boolean;
}) {
  return (
    <OnlineForm
      legend={props.legend}
      submitLabel={props.submitLabel}
      pending={props.pending}
      onSubmit={props.onSubmit}
      variant={props.danger ? 'danger' : 'primary'}
      offlineHint
    >
      {props.children}
      {props.error ? (
        <p className="field__error" role="alert" tabIndex={-1} {...{ [FORM_ERROR_ATTRIBUTE]: '' }}>
          {props.error}
        </p>
      ) : null}
      {props.done}
    </OnlineForm>
  );
}

function EmailSection() {
  const { account } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const change = useSubmit(() =>
    apiSend(
      'POST',
      '/api/account/email',
      { email, password },
      z.object({ account: accountSchema }),
    ),
  );
  if (!account) return null;
  return (
    <Section title="Email" id="email">
      <p>
        Your account uses <strong>{account.email}</strong>
        {account.emailVerified ? ' (confirmed).' : ' (not confirmed yet).'}
      </p>
      {account.pendingEmail ? (
        <Notice tone="info" title="Waiting for confirmation">
          We sent a link to <strong>{account.pendingEmail}</strong>. Your email changes when you
          open it; then sign in again with the new address.
        </Notice>
      ) : null}
      <SettingsForm
        legend="Change email"
        submitLabel="Send confirmation link"
        pending={change.pending}
        error={change.error}
        onSubmit={() =>
          void change.submit().then((r) => {
            if (!r) return;
            setAccount(r.account);
            setEmail('');
            setPassword('');
          })
        }
      >
        <TextField
          label="New email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={change.fields.email}
        />
        <TextField
          label="Current password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={change.fields.password}
        />
      </SettingsForm>
    </Section>
  );
}

function PasswordSection({ onChanged }: { onChanged: () => void }) {
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const [done, setDone] = useState(false);
  const change = useSubmit(() =>
    apiSend(
      'POST',
      '/api/account/password',
      { currentPassword, newPassword },
      z.object({ changed: z.boolean() }),
    ),
  );
  return (
    <Section title="Password" id="password">
      <SettingsForm
        legend="Change password"
        submitLabel="Change password"
        pending={change.pending}
        error={change.error}
        done={
          done ? (
            <p className="field__hint" role="status">
              Your password is changed, and your other devices are signed out.
            </p>
          ) : null
        }
        onSubmit={() =>
          void change.submit().then((r) => {
            if (!r) return;
            setDone(true);
            setCurrent('');
            setNew('');
            onChanged();
          })
        }
      >
        <TextField
          label="Current password"
          type="password"
          autoComplete="current-password"
          value={currentPassword}
          onChange={(e) => setCurrent(e.target.value)}
          error={change.fields.currentPassword}
        />
        <NewPasswordField
          label="New password"
          value={newPassword}
          onChange={setNew}
          error={change.fields.newPassword}
          note="Changing it signs out your other devices."
        />
      </SettingsForm>
    </Section>
  );
}

function SessionsSection({ version }: { version: number }) {
  const [sessions, setSessions] = useState<SessionInfo[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const navigate = useNavigate();
  const load = useCallback(() => {
    apiGet('/api/account/sessions', sessionListSchema).then(
      (r) => {
        setSessions(r.sessions);
        setError(null);
      },
      (e: unknown) => setError(describeError(e).message),
    );
  }, []);
  useEffect(load, [load, version]);

  const end = async (session: SessionInfo) => {
    try {
      await apiSend('DELETE', `/api/account/sessions/${session.id}`, undefined, z.object({}));
      if (session.current) {
        setAccount(null);
        await navigate({ to: '/login' });
      } else load();
    } catch (e) {
      setError(describeError(e).message);
    }
  };
  const endOthers = async () => {
    try {
      await apiSend(
        'POST',
        '/api/account/sessions/revoke-others',
        undefined,
        z.object({ ended: z.number() }),
      );
      load();
    } catch (e) {
      setError(describeError(e).message);
    }
  };

  return (
    <Section title="Where you’re signed in" id="sessions">
      {error ? (
        <Notice tone="warning" live="alert">
          {error}
        </Notice>
      ) : null}
      {!sessions && !error ? <Loading label="Loading your sessions…" /> : null}
      {sessions ? (
        <>
          <ul className="settings-list" aria-label="Active sessions">
            {sessions.map((s) => (
              <li key={s.id}>
                <div>
                  <strong>{s.device}</strong>
                  {s.current ? ' — this device' : ''}
                  <p className="settings-list__meta">
                    Last active {dateAndTime(s.lastSeenAt)}
                    {s.ip ? ` from ${s.ip}` : ''} · signed in {dateAndTime(s.createdAt)}
                  </p>
                </div>
                <Button size="small" variant="secondary" onClick={() => void end(s)}>
                  {s.current ? 'Sign out' : `Sign out ${s.device}`}
                </Button>
              </li>
            ))}
          </ul>
          {sessions.length > 1 ? (
            <p>
              <Button variant="secondary" onClick={() => void endOthers()}>
                Sign out all other devices
              </Button>
            </p>
          ) : null}
        </>
      ) : null}
    </Section>
  );
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * What deleting ends for other people, asked of the server when the section shows: the shared
 * spaces that end for everyone in them and how many people that touches.
 */
function DeletionReach() {
  const online = useOnlineStatus();
  const [reach, setReach] = useState<AccountDeletionPreview | 'failed' | null>(null);
  useEffect(() => {
    if (!online) return;
    let cancelled = false;
    apiGet('/api/account/deletion', accountDeletionPreviewSchema).then(
      (answer) => !cancelled && setReach(answer),
      () => !cancelled && setReach('failed'),
    );
    return () => {
      cancelled = true;
    };
  }, [online]);
  if (!online) {
    return <p>Who else this touches shows when you’re online.</p>;
  }
  if (reach === null) return <Loading label="Checking who else this touches…" />;
  if (reach === 'failed') {
    return (
      <p>
        We couldn’t check which shared spaces this would end. Any space you own, or that is in one
        of your apps, ends for everyone in it.
      </p>
    );
  }
  const spaces = reach.endingSpaces;
  return (
    <>
      {spaces.length > 0 ? (
        <Notice
          tone="warning"
          title={`${plural(spaces.length, 'shared space ends', 'shared spaces end')} for everyone in ${spaces.length === 1 ? 'it' : 'them'}`}
        >
          <p>
            {reach.people > 0
              ? `${plural(reach.people, 'other person loses', 'other people lose')} the list${spaces.length === 1 ? '' : 's'} they share there; each is told why, and may keep a copy of the items on their device.`
              : 'Nobody else is in them yet.'}
          </p>
          <ul>
            {spaces.slice(0, 8).map((space) => (
              <li key={space.id}>
                “<span dir="auto">{space.name}</span>” —{' '}
                {space.people === 0
                  ? 'only you'
                  : plural(space.people, 'other person', 'other people')}
              </li>
            ))}
            {spaces.length > 8 ? <li>and {spaces.length - 8} more</li> : null}
          </ul>
        </Notice>
      ) : (
        <p>No shared space ends: you own none, and none are in your apps.</p>
      )}
      {reach.leaving > 0 ? (
        <p>
          You also leave {plural(reach.leaving, 'space', 'spaces')} of other people; what you added
          there stays, shown as by “a former member”.
        </p>
      ) : null}
    </>
  );
}

function DeleteSection() {
  const navigate = useNavigate();
  const { account } = useSession();
  const confirmErrorId = useId();
  const [password, setPassword] = useState('');
  const [confirmed, setConfirmed] = useState(false);
  // What the form itself found missing at the last try; cleared as each part is given.
  const [problems, setProblems] = useState<DeletionProblems>({});
  const remove = useSubmit(() => apiSend('DELETE', '/api/account', { password }, z.object({})));
  const passwordError = problems.password ?? remove.fields.password;
  return (
    <Section title="Delete your account" id="delete">
      <div className="danger-zone">
        <p>
          This deletes your profile, your apps with their visitors’ data, and what you keep in other
          people’s apps, and signs you out everywhere. It can’t be undone. Your username{' '}
          <strong>@{account?.username}</strong> becomes available to others after 30 days. Download
          your data first if you want to keep it.
        </p>
        <DeletionReach />
        <SettingsForm
          legend="Delete account"
          submitLabel="Delete my account"
          danger
          pending={remove.pending}
          error={remove.error ?? null}
          onSubmit={() => {
            const found = deletionProblems(password, confirmed);
            setProblems(found);
            if (found.password || found.confirm) {
              remove.reset();
              return;
            }
            void remove.submit().then(async (r) => {
              if (!r) return;
              noteAccountDeleted();
              setAccount(null);
              await navigate({ to: '/' });
            });
          }}
        >
          <TextField
            label="Your password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => {
              setPassword(e.target.value);
              if (e.target.value) setProblems(({ password: _, ...rest }) => rest);
            }}
            error={passwordError}
          />
          <div className="field">
            <label className="checkbox">
              <input
                type="checkbox"
                checked={confirmed}
                aria-invalid={problems.confirm ? true : undefined}
                aria-describedby={problems.confirm ? confirmErrorId : undefined}
                onChange={(e) => {
                  setConfirmed(e.target.checked);
                  if (e.target.checked) setProblems(({ confirm: _, ...rest }) => rest);
                }}
              />{' '}
              I understand that my account and apps will be deleted for good.
            </label>
            {problems.confirm ? (
              <p className="field__error" id={confirmErrorId}>
                {problems.confirm}
              </p>
            ) : null}
          </div>
        </SettingsForm>
      </div>
    </Section>
  );
}

/** What this device holds for the person and whether the server has it all. */
function DeviceSection() {
  const { account } = useSession();
  const online = useOnlineStatus();
  const apps = useLocalApps(account?.id ?? null);
  const waiting =
    apps === undefined
      ? null
      : apps.filter((app) => !app.deleting && listedSync(app, online).kind !== 'saved').length;
  return (
    <DurabilityPanel
      facts={useDurability()}
      waiting={waiting}
      signedIn={!!account}
      online={online}
      where="platform"
    />
  );
}

/** `/account/settings`: email, password, sessions, appearance, this device, export, deletion. */
export function AccountSettingsPage() {
  const [theme, setTheme] = useThemePreference();
  const [sessionsVersion, setSessionsVersion] = useState(0);
  return (
    <Page title="Settings" width="prose">
      <EmailSection />
      <PasswordSection onChanged={() => setSessionsVersion((v) => v + 1)} />
      <SessionsSection version={sessionsVersion} />
      <NotificationsSection />
      <Section title="Appearance" id="appearance">
        <p>How Pipit looks on this device.</p>
        <Segmented label="Colour theme" options={THEME_OPTIONS} value={theme} onChange={setTheme} />
      </Section>
      <Section title="This device" id="device">
        <DeviceSection />
      </Section>
      <Section title="Your data" id="data">
        <p>
          Download everything Pipit keeps about your account as one <strong>.pipit</strong> file:
          your profile and sessions, and every app you own with its versions, history, images and
          your data in it. Import it on any Pipit server from <strong>Create</strong>.
        </p>
        <a className="button button--secondary" href="/api/account/export" download>
          Download my data (.pipit)
        </a>
      </Section>
      <DeleteSection />
    </Page>
  );
}

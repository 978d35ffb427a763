import { appPwaPaths, type PublishedApp } from '@pipit/protocol';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { recordAppInstalled } from '../../sync/library/library';
import { AppIcon } from '../../ui/app-icon';
import { Button, buttonClass } from '../../ui/button';
import { formatMoment } from '../../ui/format-time';
import { Notice } from '../../ui/notice';
import { Page, Section } from '../../ui/page';
import { QrCode } from '../../ui/qr-code';
import { useSession } from '../../platform/session/session';
import { manifestAppId, promptInstall, useInstallPrompt } from './install-prompt';
import { InstallSteps } from './install-steps';
import { libraryListing } from './library-listing';
import { detectPlatform } from './platform';
import { useInstalled } from './use-installed';
import './install-page.css';

/**
 * `/apps/{id}/install`: the browser's install prompt where it has one, steps for every kind of
 * device (this one's first), a QR code to open the app on a phone, and an "installed" state.
 */
export function InstallPage({
  app,
  isLastSeenCopy,
  seenAt,
}: {
  app: PublishedApp;
  isLastSeenCopy: boolean;
  seenAt: number | null;
}) {
  const title = app.title || 'Untitled app';
  const [platform] = useState(() => detectPlatform());
  const pwaUrl = `${window.location.origin}${appPwaPaths(app.id).page}`;
  const accountId = useSession().account?.id ?? null;
  const installed = useInstalled(app.id);
  const installPrompt = useInstallPrompt(app.id);

  // Installed from this page: the app joins my library, marked installed.
  useEffect(() => {
    const onInstalled = () => {
      if (manifestAppId() !== app.id || app.version === null) return;
      recordAppInstalled(accountId, libraryListing(app)).catch((error: unknown) =>
        console.warn('Could not add the app to your library:', error),
      );
    };
    window.addEventListener('appinstalled', onInstalled);
    return () => window.removeEventListener('appinstalled', onInstalled);
  }, [app, accountId]);

  return (
    <Page
      eyebrow="Install"
      title={
        <span className="install__title">
          <AppIcon icon={app.icon} size={56} />
          <span>{title}</span>
        </span>
      }
      lead="Installed, it opens in its own window from your home screen or desktop, and works offline."
    >
      {isLastSeenCopy ? (
        <Notice tone="offline">
          You’re offline — this is the copy of the page you last saw
          {seenAt ? ` (${formatMoment(seenAt)})` : ''}.
        </Notice>
      ) : null}
      {app.version === null ? (
        <Notice tone="info" title="Not published yet">
          <p>There is nothing to install until its owner publishes it.</p>
          <Link to="/apps/$id" params={{ id: app.id }}>
            Back to the app’s page
          </Link>
        </Notice>
      ) : (
        <>
          <InstallAction
            appId={app.id}
            title={title}
            pwaPath={appPwaPaths(app.id).page}
            installed={installed}
            installPrompt={installPrompt}
          />
          <Section title="How to install" id="steps">
            <InstallSteps
              detected={platform}
              oneClick={!installed && installPrompt.prompt !== null}
            />
          </Section>
          <Section title="Open it on your phone" id="qr">
            <div className="install__qr">
              <QrCode text={pwaUrl} label={`QR code that opens ${title} at ${pwaUrl}`} />
              <p>
                Point your phone’s camera at the code to open <strong>{title}</strong> there, then
                install it with the steps for your phone. Or go to{' '}
                <span className="install__url">{pwaUrl}</span>
              </p>
            </div>
          </Section>
        </>
      )}
    </Page>
  );
}

/** The install button, or why there is none, or "installed". */
function InstallAction({
  appId,
  title,
  pwaPath,
  installed,
  installPrompt,
}: {
  appId: string;
  title: string;
  pwaPath: string;
  installed: boolean;
  installPrompt: ReturnType<typeof useInstallPrompt>;
}) {
  const { prompt, needsReload } = installPrompt;
  const [outcome, setOutcome] = useState<'idle' | 'asking' | 'dismissed'>('idle');

  const install = async () => {
    if (!prompt) return;
    setOutcome('asking');
    const accepted = await promptInstall(prompt).catch(() => false);
    // Accepted: the `appinstalled` event marks it installed.
    setOutcome(accepted ? 'idle' : 'dismissed');
  };

  const open = (
    <a className={buttonClass(installed ? 'primary' : 'secondary')} href={pwaPath}>
      Open {title}
    </a>
  );

  if (installed) {
    return (
      <div className="install__action">
        <Notice tone="success" title="Installed on this device">
          <p>Open it from your home screen, dock or app list — or here.</p>
        </Notice>
        <div className="row">{open}</div>
      </div>
    );
  }
  return (
    <div className="install__action">
      <div className="row">
        {prompt ? (
          <Button onClick={() => void install()} disabled={outcome === 'asking'}>
            {outcome === 'asking' ? 'Installing…' : `Install ${title}`}
          </Button>
        ) : null}
        {open}
      </div>
      {outcome === 'dismissed' ? (
        <p className="install__note" role="status">
          Not installed. You can install it whenever you like.
        </p>
      ) : null}
      {!prompt && needsReload ? (
        <p className="install__note">
          To let your browser install this app,{' '}
          <a href={`/apps/${appId}/install`}>reload this page</a>.
        </p>
      ) : null}
      {!prompt && !needsReload ? (
        <p className="install__note">
          Your browser doesn’t offer one-click install on this page. Follow the steps for your
          device below.
        </p>
      ) : null}
    </div>
  );
}

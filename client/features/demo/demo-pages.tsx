import type { ReadDefinition } from '@pipit/app-definition';
import { AppRuntime } from '@pipit/runtime';
import { Link } from '@tanstack/react-router';
import { useSession } from '../../platform/session/session';
import { useVisitorData } from '../../sync/visitor-data/visitor-data';
import { Button, buttonClass } from '../../ui/button';
import { ButtonLink } from '../../ui/button-link';
import { Loading } from '../../ui/loading';
import { Page, Section } from '../../ui/page';
import { useAppColorMode } from '../../ui/color-mode';
import { describeDataSync } from '../../sync/visitor-data/status';
import { SyncIndicator } from '../../ui/sync-indicator';
import { SHOWCASE_DATA_DOCUMENT, showcaseDefinition } from './showcase-definition';
import { hasShowcaseManifest, installShowcase, useShowcaseInstall } from './showcase-install';
import './showcase-page.css';

const SOURCE = { kind: 'device', name: SHOWCASE_DATA_DOCUMENT } as const;

/**
 * `/demo1`: a complete app made with Pipit — a habit tracker — running in the same runtime as
 * every published app, with its data on this device. Anyone can use it, and install it.
 */
export function ShowcasePage() {
  const definition: ReadDefinition = showcaseDefinition();
  const visitorData = useVisitorData(SOURCE);
  const colorMode = useAppColorMode(definition.theme.mode);
  const { account } = useSession();
  return (
    <Page
      eyebrow="Showcase"
      title="Habit tracker"
      lead="A complete Pipit app: tick off your habits each day, log how they went, and watch your streaks and charts grow. Everything stays on your device."
    >
      <div className="showcase">
        <section className="showcase__device" aria-label="The habit tracker app">
          {visitorData.phase === 'ready' ? (
            <AppRuntime
              definition={definition}
              data={visitorData.data}
              colorMode={colorMode}
              user={account ? { name: account.displayName || account.username } : null}
              chrome="preview"
            />
          ) : (
            <Loading label="Opening the habit tracker…" />
          )}
          <SyncIndicator {...describeDataSync(visitorData.sync)} />
        </section>
        <div className="showcase__aside">
          <InstallSection />
          <Section title="Made with Pipit" id="made-with-pipit">
            <p>
              Every screen, list, form and chart here is a Pipit component, arranged in the visual
              editor — no code. Build your own in a few minutes, then publish it for anyone to
              install.
            </p>
            <div className="showcase__actions">
              <ButtonLink to="/demo">Try the editor</ButtonLink>
              <ButtonLink to="/explore" variant="secondary">
                Explore apps
              </ButtonLink>
            </div>
          </Section>
        </div>
      </div>
    </Page>
  );
}

function InstallSection() {
  const { isInstalled, canPrompt } = useShowcaseInstall();
  return (
    <Section title="Install it" id="install">
      {isInstalled ? (
        <p>
          The habit tracker is installed on this device. Open it from your home screen or app list.
        </p>
      ) : (
        <>
          <p>
            Install the habit tracker as its own app: it opens from your home screen and works with
            no connection.
          </p>
          {canPrompt ? (
            <Button onClick={() => void installShowcase()}>Install the habit tracker</Button>
          ) : hasShowcaseManifest() ? (
            <ul className="showcase__steps">
              <li>
                <strong>iPhone and iPad (Safari):</strong> tap Share, then “Add to Home Screen”.
              </li>
              <li>
                <strong>Android (Chrome):</strong> open the ⋮ menu, then “Install app” or “Add to
                Home screen”.
              </li>
              <li>
                <strong>Computer (Chrome, Edge):</strong> click the install icon at the right of the
                address bar.
              </li>
            </ul>
          ) : (
            // Reached from inside Pipit, this page still carries Pipit's own manifest: a full
            // load of /demo1 brings the showcase's, which the browser installs.
            <a className={buttonClass('secondary')} href="/demo1">
              Get ready to install
            </a>
          )}
        </>
      )}
      <p className="showcase__note">
        Your habits and check-ins are kept in this browser only. <Link to="/signup">Sign up</Link>{' '}
        to build apps whose data follows you to every device.
      </p>
    </Section>
  );
}

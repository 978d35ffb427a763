import { Link } from '@tanstack/react-router';
import { useSyncExternalStore } from 'react';
import { Notice } from '../../ui/notice';
import { accountDeletedThisVisit } from '../../platform/session/farewell';
import { ButtonLink } from '../../ui/button-link';
import { Card } from '../../ui/card';
import { Section } from '../../ui/page';
import { FeaturedApps } from './featured-apps';
import './landing-page.css';

const STEPS = [
  {
    title: 'Build',
    body: 'Lay out screens, lists, forms, checklists, charts and timers in a visual editor. It runs in your browser and keeps working on a plane.',
  },
  {
    title: 'Share',
    body: 'Invite people as editors or viewers and edit together live. Edits made offline merge without conflicts when you reconnect.',
  },
  {
    title: 'Publish',
    body: 'Publish to your profile. Anyone can install your app on a phone or a desktop as its own app, and use it offline.',
  },
] as const;

const PROMISES = [
  {
    icon: '📴',
    title: 'Offline is normal',
    body: 'The editor and every installed app work with no network. Changes are kept on the device and sync when you are back.',
  },
  {
    icon: '🤝',
    title: 'No conflicts',
    body: 'Every app is a CRDT document: two people editing the same screen at the same time both keep their work.',
  },
  {
    icon: '🔒',
    title: 'Visitors’ data is theirs',
    body: 'What people enter into your app stays private to them and follows them across their devices. Not even you can read it.',
  },
  {
    icon: '✅',
    title: '“Saved” means saved',
    body: 'The sync badge says saved only after the server has stored your change, never before.',
  },
  {
    icon: '📲',
    title: 'Real installable apps',
    body: 'Each published app has its own icon, name, colours and offline support on iOS, Android and desktop.',
  },
  {
    icon: '🏠',
    title: 'Yours to run',
    body: 'Export any app as JSON, or run your own Pipit server with one command on SQLite or PostgreSQL.',
  },
] as const;

const noChanges = () => () => {};

/** `/`: what Pipit is, a glimpse of how it works, and featured apps. */
export function LandingPage() {
  // Read after hydration (the server's snapshot is "no"): the page is pre-rendered without it
  // (docs/product/accounts.md).
  const deleted = useSyncExternalStore(noChanges, accountDeletedThisVisit, () => false);
  return (
    <>
      {deleted ? (
        <div className="container landing-farewell">
          <Notice tone="success" title="Your account was deleted.">
            Your profile, your apps and their data are gone, and you are signed out everywhere.
            Thank you for trying Pipit — you can <Link to="/signup">create a new account</Link>{' '}
            whenever you like.
          </Notice>
        </div>
      ) : null}
      <div className="container hero">
        <div>
          <h1 className="hero__title">Small apps that work offline and stay yours.</h1>
          <p className="hero__lead">
            Pipit is a local-first platform for building small, installable apps — habit trackers,
            reading lists, guest lists, recipe books. Build on any device, even offline; co-edit
            live; publish to your profile; install anywhere.
          </p>
          <div className="hero__actions">
            <ButtonLink to="/signup">Start building</ButtonLink>
            <ButtonLink to="/demo" variant="secondary">
              Try it without an account
            </ButtonLink>
          </div>
        </div>
        <figure className="hero__figure">
          <ul className="sync-demo" aria-label="How an edit travels">
            <li>
              <span className="sync-demo__badge sync-demo__badge--offline">offline</span>
              <span>You rename a screen on the train. The change is stored on your phone.</span>
            </li>
            <li>
              <span className="sync-demo__badge">syncing (1)</span>
              <span>Back in signal, your phone sends it to the server.</span>
            </li>
            <li>
              <span className="sync-demo__badge sync-demo__badge--saved">saved</span>
              <span>The server has stored it; your laptop and collaborators see it.</span>
            </li>
          </ul>
          <figcaption className="hero__caption">
            The sync badge on every app tells you exactly where your changes are.
          </figcaption>
        </figure>
      </div>

      <div className="container">
        <Section title="How it works" id="how">
          <ol className="grid steps">
            {STEPS.map((step, index) => (
              <li key={step.title}>
                <Card title={step.title} icon={String(index + 1)}>
                  {step.body}
                </Card>
              </li>
            ))}
          </ol>
        </Section>

        <Section title="What you can count on" id="promises">
          <div className="grid">
            {PROMISES.map((p) => (
              <Card key={p.title} title={p.title} icon={p.icon}>
                {p.body}
              </Card>
            ))}
          </div>
        </Section>

        <Section
          title="Featured apps"
          id="featured"
          aside={<Link to="/explore">Explore all apps</Link>}
        >
          <FeaturedApps />
        </Section>

        <Section title="Run it yourself" id="self-host">
          <p>
            Pipit is one Node.js process with embedded storage. Read how to{' '}
            <Link to="/docs/platform" hash="self-hosting">
              host your own server
            </Link>
            , or see the <Link to="/pricing">plans and limits</Link>.
          </p>
        </Section>
      </div>
    </>
  );
}

import { Link } from '@tanstack/react-router';
import { ButtonLink } from '../../ui/button';
import { Card } from '../../ui/card';
import { EmptyState } from '../../ui/empty-state';
import { Page, Section } from '../../ui/page';

/** `/demo`: the editor on a local, unsynced app — try building without an account. */
export function DemoPage() {
  return (
    <Page
      eyebrow="Try Pipit"
      title="Build an app without an account"
      lead="The demo runs the editor on an app that lives only in this browser. Nothing is sent anywhere; sign up later and the draft becomes your first app."
    >
      <EmptyState
        icon="🧪"
        title="The demo editor isn’t available on this server yet"
        action={<ButtonLink to="/docs/platform">Read how apps are built</ButtonLink>}
      >
        This server does not run the editor yet. Its documentation describes every part of an app:
        screens, components, collections, actions and themes.
      </EmptyState>
      <Section title="What you will be able to do here" id="what">
        <div className="grid">
          <Card icon="📴" title="Work offline">
            The demo app is stored in this browser, so it keeps working with no network.
          </Card>
          <Card icon="🎨" title="Try every part">
            Add screens, lists, forms and charts, change the theme, and see the preview update live.
          </Card>
          <Card icon="🧳" title="Keep your work">
            Sign up and the draft is kept as the first app in your studio.
          </Card>
        </div>
      </Section>
    </Page>
  );
}

/** `/demo1`: a showcase app (a habit tracker) running in the runtime with local data. */
export function ShowcasePage() {
  return (
    <Page
      eyebrow="Showcase"
      title="Habit tracker"
      lead="A complete Pipit app: tick off habits each day, watch your streaks, install it on your phone. Your ticks stay on your device."
    >
      <EmptyState
        icon="🐦"
        title="The showcase app isn’t installed on this server yet"
        action={<ButtonLink to="/explore">Explore apps</ButtonLink>}
      >
        It runs in the same runtime as every published app. Meanwhile, read how{' '}
        <Link to="/docs/platform">installable apps</Link> work.
      </EmptyState>
    </Page>
  );
}

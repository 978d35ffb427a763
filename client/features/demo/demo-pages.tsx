import { Link } from '@tanstack/react-router';
import { ButtonLink } from '../../ui/button';
import { EmptyState } from '../../ui/empty-state';
import { Page } from '../../ui/page';

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

import { ButtonLink } from '../../ui/button';
import { Notice } from '../../ui/notice';
import { useSession } from '../account/session';
import { EmptyState } from '../../ui/empty-state';
import { Page, Section } from '../../ui/page';

/** `/home`: where a signed-in person lands — continue editing, library, activity, suggestions. */
export function HomePage({ notice }: { notice?: 'password-reset' | undefined }) {
  const { account } = useSession();
  return (
    <Page
      title={account ? `Welcome, ${account.displayName || account.username}` : 'Home'}
      lead="Pick up where you left off."
      actions={<ButtonLink to="/create">New app</ButtonLink>}
    >
      {notice === 'password-reset' ? (
        <Notice tone="success" title="Your password is changed">
          Every other device was signed out. You are signed in here.
        </Notice>
      ) : null}
      <Section title="Continue editing" id="recent">
        <EmptyState icon="✏️" title="Nothing to continue yet" level={3}>
          Apps you edit recently appear here, on every device you sign in on.
        </EmptyState>
      </Section>
      <Section title="Your library" id="library">
        <EmptyState icon="📚" title="Your library is empty" level={3}>
          Apps you open, save or install from other people are kept here and work offline.
        </EmptyState>
      </Section>
      <Section title="Collaborators’ activity" id="activity">
        <EmptyState icon="🤝" title="No recent activity" level={3}>
          When people you build with change an app you share, you will see it here.
        </EmptyState>
      </Section>
      <Section title="Suggestions" id="suggestions">
        <EmptyState icon="🌱" title="Nothing to suggest yet" level={3}>
          Suggestions are drawn from public apps similar to the ones you build and use.
        </EmptyState>
      </Section>
    </Page>
  );
}

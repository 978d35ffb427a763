import { Link } from '@tanstack/react-router';
import { useLocalApps } from '../../sync/app-document/local-apps';
import { ButtonLink } from '../../ui/button-link';
import { Notice } from '../../ui/notice';
import { Page, Section } from '../../ui/page';
import { useOnlineStatus } from '../../ui/use-online-status';
import { useSession } from '../../platform/session/session';
import {
  CollaboratorActivity,
  ContinueEditing,
  LibraryPreview,
  Suggestions,
} from './home-sections';

/** `/home`: where a signed-in person lands — continue editing, library, activity, suggestions. */
export function HomePage({ notice }: { notice?: 'password-reset' | undefined }) {
  const { account } = useSession();
  const online = useOnlineStatus();
  const apps = useLocalApps(account?.id ?? null);
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
      <Section title="Continue editing" id="recent" aside={<Link to="/studio">All your apps</Link>}>
        <ContinueEditing apps={apps} online={online} />
      </Section>
      <Section title="Your library" id="library" aside={<Link to="/apps">Open your library</Link>}>
        {account ? <LibraryPreview accountId={account.id} /> : null}
      </Section>
      <Section title="Collaborators’ activity" id="activity">
        <CollaboratorActivity localApps={apps} />
      </Section>
      <Section title="Suggestions" id="suggestions" aside={<Link to="/explore">Explore</Link>}>
        {account ? <Suggestions username={account.username} localApps={apps} /> : null}
      </Section>
    </Page>
  );
}

import { ButtonLink } from '../../ui/button';
import { EmptyState } from '../../ui/empty-state';
import { Page } from '../../ui/page';

/** `/apps`: apps this person opened, saved or installed; kept on the device, usable offline. */
export function LibraryPage() {
  return (
    <Page
      title="Your apps"
      lead="Apps you open, save or install are kept here, on this device, and work offline."
    >
      <EmptyState
        icon="📚"
        title="Your library is empty"
        action={<ButtonLink to="/explore">Find an app</ButtonLink>}
      >
        Open an app from someone’s profile or from Explore and it appears here. Without an account
        it stays on this device; signed in, it follows you to your other devices.
      </EmptyState>
    </Page>
  );
}

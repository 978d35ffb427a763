import { Link } from '@tanstack/react-router';
import { EmptyState } from '../../ui/empty-state';
import { Page } from '../../ui/page';

/** `/archive`: archived apps — restore them, or delete them forever. */
export function ArchivePage() {
  return (
    <Page
      title="Archive"
      lead="Archived apps leave your profile and Explore. Installed copies keep working until you delete an app for good."
    >
      <EmptyState icon="🗄️" title="Nothing archived">
        Archive an app from its menu in the <Link to="/studio">studio</Link>. From here you can
        restore it, or delete it forever after confirming.
      </EmptyState>
    </Page>
  );
}

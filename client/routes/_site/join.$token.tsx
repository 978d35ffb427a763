import { createFileRoute } from '@tanstack/react-router';
import { JoinSpacePage } from '../../features/spaces/join-page';
import { pageHead } from '../../features/shell/head';

export const Route = createFileRoute('/_site/join/$token')({
  head: () => pageHead('Join a shared space'),
  component: function JoinRoute() {
    return <JoinSpacePage token={Route.useParams().token} />;
  },
});

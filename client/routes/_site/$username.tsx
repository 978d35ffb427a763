import { createFileRoute, notFound } from '@tanstack/react-router';
import { usernameSchema } from '@pipit/protocol';
import { loadProfile } from '../../features/profiles/load-profile';
import { ProfileNotFound, ProfilePage } from '../../features/profiles/profile-page';
import { pageHead } from '../../features/shell/head';
import { Loading } from '../../ui/loading';

export const Route = createFileRoute('/_site/$username')({
  loader: ({ params, abortController }) => {
    const username = usernameSchema.safeParse(params.username);
    if (!username.success) throw notFound();
    return loadProfile(username.data, abortController.signal);
  },
  head: ({ loaderData, params }) =>
    pageHead(
      loaderData
        ? `${loaderData.profile.displayName || loaderData.profile.username} (@${loaderData.profile.username})`
        : `@${params.username}`,
      loaderData?.profile.bio || undefined,
    ),
  pendingComponent: () => <Loading label="Loading profile…" />,
  notFoundComponent: function ProfileNotFoundRoute() {
    return <ProfileNotFound username={Route.useParams().username} />;
  },
  component: function ProfileRoute() {
    return <ProfilePage {...Route.useLoaderData()} />;
  },
});

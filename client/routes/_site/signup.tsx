import { createFileRoute } from '@tanstack/react-router';
import { redirectIfSignedIn } from '../../platform/session/route-guards';
import { SignupPage } from '../../features/account/signup-page';
import { pageHead } from '../../features/shell/head';

export const Route = createFileRoute('/_site/signup')({
  beforeLoad: () => redirectIfSignedIn(),
  head: () => pageHead('Create your account'),
  component: SignupPage,
});

import { createFileRoute } from '@tanstack/react-router';
import { SignupPage } from '../../features/account/signup-page';
import { pageHead } from '../../features/shell/head';

export const Route = createFileRoute('/_site/signup')({
  head: () => pageHead('Create your account'),
  component: SignupPage,
});

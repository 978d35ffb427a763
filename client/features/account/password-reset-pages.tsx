import { Link, useNavigate } from '@tanstack/react-router';
import { returnPath, sessionResponseSchema } from '@pipit/protocol';
import { useState } from 'react';
import { z } from 'zod';
import { TextField } from '../../ui/field';
import { Notice } from '../../ui/notice';
import { Page } from '../../ui/page';
import { apiSend } from '../../platform/api/request';
import { useSubmit } from '../../platform/api/use-submit';
import { AuthPage } from './auth-page';
import { NewPasswordField } from './new-password-field';
import { setAccount } from '../../platform/session/session';
import { useGoBack } from '../../platform/session/route-guards';

/** `/forgot-password`: request a reset link by email (the same answer whether or not it exists). */
export function ForgotPasswordPage({ redirect }: { redirect?: string | undefined }) {
  const next = returnPath(redirect);
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { submit, pending, error, fields } = useSubmit(() =>
    apiSend('POST', '/api/auth/forgot-password', { email, next }, z.object({ sent: z.boolean() }), {
      humanCheck: true,
    }),
  );

  if (sentTo) {
    return (
      <Page title="Check your email" width="narrow">
        <Notice tone="success" title="If an account uses that address, a link is on its way">
          <p>
            We sent it to <strong>{sentTo}</strong>. It works once and expires in 1 hour. Nothing
            arrived after a few minutes? Look in your spam folder, or{' '}
            <button type="button" className="link-button" onClick={() => setSentTo(null)}>
              try another address
            </button>
            .
          </p>
        </Notice>
        <Link to="/login" search={{ redirect: next }}>
          Back to sign in
        </Link>
      </Page>
    );
  }

  return (
    <AuthPage
      title="Reset your password"
      lead="Enter the email address of your account and we will send you a link to choose a new password."
      action="Requesting a reset link"
      submitLabel="Send reset link"
      pending={pending}
      error={error}
      onSubmit={() => void submit().then((r) => r && setSentTo(email.trim()))}
      returnTo={next}
      footer={
        <p>
          Remembered it?{' '}
          <Link to="/login" search={{ redirect: next }}>
            Sign in
          </Link>
        </p>
      }
    >
      <TextField
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        required
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={fields.email}
      />
    </AuthPage>
  );
}

/** `/reset-password?token=…`: choose a new password from the emailed link. */
export function ResetPasswordPage({
  token,
  next,
}: {
  token: string | undefined;
  next?: string | undefined;
}) {
  const navigate = useNavigate();
  const goBack = useGoBack();
  const returnTo = returnPath(next);
  const [password, setPassword] = useState('');
  const { submit, pending, error, fields } = useSubmit(() =>
    apiSend('POST', '/api/auth/reset-password', { token, password }, sessionResponseSchema),
  );

  if (!token) {
    return (
      <Page title="Choose a new password" width="narrow">
        <Notice tone="warning" title="The link is incomplete">
          This page opens from the link in a password-reset email, and the address has no token.
          Open the link from the email again, or{' '}
          <Link to="/forgot-password">ask for a new one</Link>.
        </Notice>
      </Page>
    );
  }

  const onSubmit = async () => {
    const result = await submit();
    if (!result?.account) return;
    setAccount(result.account);
    if (returnTo) await goBack(returnTo);
    else await navigate({ to: '/home', search: { notice: 'password-reset' } });
  };

  return (
    <AuthPage
      title="Choose a new password"
      lead="Pick a new password. Every device signed in to your account will be signed out."
      action="Resetting your password"
      submitLabel="Set new password"
      pending={pending}
      error={error}
      onSubmit={() => void onSubmit()}
      returnTo={returnTo}
      footer={
        <p>
          Link expired?{' '}
          <Link to="/forgot-password" search={{ redirect: returnTo }}>
            Request another reset email
          </Link>
        </p>
      }
    >
      <NewPasswordField
        label="New password"
        value={password}
        onChange={setPassword}
        error={fields.password}
      />
    </AuthPage>
  );
}

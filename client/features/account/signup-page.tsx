import { Link, useNavigate } from '@tanstack/react-router';
import { returnPath, sessionResponseSchema } from '@pipit/protocol';
import { useState } from 'react';
import { TextField } from '../../ui/field';
import { adoptDemoApps } from '../../sync/app-document/local-apps';
import { apiSend } from '../../platform/api/request';
import { reconcileApps } from '../../platform/app-registry';
import { useSubmit } from '../../platform/api/use-submit';
import { AuthPage } from './auth-page';
import { NewPasswordField } from './new-password-field';
import { setAccount } from '../../platform/session/session';
import { useGoBack } from '../../platform/session/route-guards';
import { useUsernameAvailability } from './use-username-availability';

/**
 * `/signup`: username (checked as you type), email, password. `redirect` is where the person was
 * going (an invitation): they go back there, and so does the confirmation email's link.
 */
export function SignupPage({ redirect }: { redirect?: string | undefined }) {
  const navigate = useNavigate();
  const goBack = useGoBack();
  const next = returnPath(redirect);
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const availability = useUsernameAvailability(username);
  const { submit, pending, error, fields } = useSubmit(() =>
    apiSend(
      'POST',
      '/api/auth/signup',
      { username, email, password, next },
      sessionResponseSchema,
      {
        humanCheck: true,
      },
    ),
  );

  const onSubmit = async () => {
    const result = await submit();
    if (!result?.account) return;
    setAccount(result.account);
    // docs/product/routes.md: the demo's draft becomes the new account's first app (it registers
    // and syncs next).
    const adopted = await adoptDemoApps(result.account.id).catch((error: unknown) => {
      console.warn('Could not keep the demo app:', error);
      return [];
    });
    const [first] = adopted;
    if (first) void reconcileApps(result.account.id);
    if (next) {
      await goBack(next);
    } else if (first) {
      await navigate({ to: '/apps/$id/edit', params: { id: first } });
    } else {
      await navigate({ to: '/home' });
    }
  };

  const usernameHint = availability
    ? availability.available
      ? `✓ /${availability.username} is yours if you want it.`
      : undefined
    : '3–30 letters, digits, “_” or “-”, starting with a letter. It is your address: /your-name.';

  return (
    <AuthPage
      title="Create your account"
      lead="Build apps that work offline, publish them to your profile, and keep your data in sync."
      action="Signing up"
      submitLabel="Create account"
      pending={pending}
      error={error}
      onSubmit={() => void onSubmit()}
      returnTo={next}
      footer={
        <p>
          Already have an account?{' '}
          <Link to="/login" search={{ redirect: next }}>
            Sign in
          </Link>
        </p>
      }
    >
      <TextField
        label="Username"
        name="username"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        required
        value={username}
        onChange={(e) => setUsername(e.target.value)}
        hint={usernameHint}
        error={
          fields.username ??
          (availability && !availability.available ? availability.reason : undefined)
        }
      />
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
      <NewPasswordField
        label="Password"
        value={password}
        onChange={setPassword}
        error={fields.password}
      />
      <p className="field__hint">
        By creating an account you agree to the <Link to="/legal/terms">terms of use</Link> and the{' '}
        <Link to="/legal/policy">acceptable-use policy</Link>. Read how we handle your data in the{' '}
        <Link to="/legal/privacy">privacy notice</Link>.
      </p>
    </AuthPage>
  );
}

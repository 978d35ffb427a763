import { Link } from '@tanstack/react-router';
import { sessionResponseSchema } from '@pipit/protocol';
import { useState } from 'react';
import { TextField } from '../../ui/field';
import { apiSend } from '../../platform/api/request';
import { useSubmit } from '../../platform/api/use-submit';
import { AuthPage } from './auth-page';
import { setAccount } from '../../platform/session/session';
import { useGoBack } from '../../platform/session/route-guards';

/** `/login`: sign in by username or email, then back to where the person was going. */
export function LoginPage({ redirect }: { redirect?: string | undefined }) {
  const goBack = useGoBack();
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const { submit, pending, error, fields } = useSubmit(() =>
    apiSend('POST', '/api/auth/login', { login, password }, sessionResponseSchema, {
      humanCheck: true,
    }),
  );

  const onSubmit = async () => {
    const result = await submit();
    if (!result?.account) return;
    setAccount(result.account);
    await goBack(redirect);
  };

  return (
    <AuthPage
      title="Sign in"
      lead="Welcome back. Your apps are where you left them."
      action="Signing in"
      submitLabel="Sign in"
      pending={pending}
      error={error}
      onSubmit={() => void onSubmit()}
      returnTo={redirect}
      footer={
        <>
          <p>
            <Link to="/forgot-password" search={{ redirect }}>
              Forgot your password?
            </Link>
          </p>
          <p>
            New to Pipit?{' '}
            <Link to="/signup" search={{ redirect }}>
              Create an account
            </Link>
          </p>
        </>
      }
    >
      <TextField
        label="Username or email"
        name="login"
        autoComplete="username"
        required
        value={login}
        onChange={(e) => setLogin(e.target.value)}
        error={fields.login}
      />
      <TextField
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={fields.password}
      />
    </AuthPage>
  );
}

import { Link } from '@tanstack/react-router';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/field';
import { AuthPage } from './auth-page';

/** `/login`: sign in by username or email. */
export function LoginPage() {
  return (
    <AuthPage
      title="Sign in"
      lead="Welcome back. Your apps are where you left them."
      action="Signing in"
      footer={
        <>
          <p>
            <Link to="/forgot-password">Forgot your password?</Link>
          </p>
          <p>
            New to Pipit? <Link to="/signup">Create an account</Link>
          </p>
        </>
      }
    >
      <TextField label="Username or email" name="login" autoComplete="username" required />
      <TextField
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        required
      />
      <Button type="submit">Sign in</Button>
    </AuthPage>
  );
}

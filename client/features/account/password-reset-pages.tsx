import { Link } from '@tanstack/react-router';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/field';
import { AuthPage } from './auth-page';

/** `/forgot-password`: request a reset link by email. */
export function ForgotPasswordPage() {
  return (
    <AuthPage
      title="Reset your password"
      lead="Enter the email address of your account and we will send you a link to choose a new password."
      action="Requesting a reset link"
      footer={
        <p>
          Remembered it? <Link to="/login">Sign in</Link>
        </p>
      }
    >
      <TextField label="Email" name="email" type="email" autoComplete="email" required />
      <Button type="submit">Send reset link</Button>
    </AuthPage>
  );
}

/** `/reset-password?token=…`: choose a new password from the emailed link. */
export function ResetPasswordPage({ hasToken }: { hasToken: boolean }) {
  return (
    <AuthPage
      title="Choose a new password"
      lead={
        hasToken
          ? 'Pick a new password. Every device signed in to your account will be signed out.'
          : 'This page opens from the link in a password-reset email. The link in your address bar has no token.'
      }
      action="Resetting your password"
      footer={
        <p>
          Need a new link? <Link to="/forgot-password">Request another reset email</Link>
        </p>
      }
    >
      <TextField
        label="New password"
        name="password"
        type="password"
        autoComplete="new-password"
        hint="At least 10 characters. Not a common password, and not your username or email."
        required
      />
      <Button type="submit">Set new password</Button>
    </AuthPage>
  );
}

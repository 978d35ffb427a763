import { Link } from '@tanstack/react-router';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/field';
import { AuthPage } from './auth-page';

/** `/signup`: username, email, password. */
export function SignupPage() {
  return (
    <AuthPage
      title="Create your account"
      lead="Build apps that work offline, publish them to your profile, and keep your data in sync."
      action="Signing up"
      footer={
        <p>
          Already have an account? <Link to="/login">Sign in</Link>
        </p>
      }
    >
      <TextField
        label="Username"
        name="username"
        autoComplete="username"
        hint="3–30 letters, digits, “_” or “-”, starting with a letter. It is your address: /your-name."
        required
      />
      <TextField label="Email" name="email" type="email" autoComplete="email" required />
      <TextField
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        hint="At least 10 characters. Not a common password, and not your username or email."
        required
      />
      <p className="field__hint">
        By creating an account you agree to the <Link to="/legal/terms">terms of use</Link> and the{' '}
        <Link to="/legal/policy">acceptable-use policy</Link>. Read how we handle your data in the{' '}
        <Link to="/legal/privacy">privacy notice</Link>.
      </p>
      <Button type="submit">Create account</Button>
    </AuthPage>
  );
}

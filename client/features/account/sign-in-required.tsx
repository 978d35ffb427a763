import { Link } from '@tanstack/react-router';
import { Notice } from '../../ui/notice';

/**
 * Shown on pages that belong to a signed-in person. Accounts are not open on this server yet, so
 * the page shows its empty layout and says so plainly.
 */
export function SignInRequired({ what }: { what: string }) {
  return (
    <Notice tone="info" title={`Sign in to see ${what}`}>
      <p>
        Accounts are not open on this Pipit server yet, so there is nothing personal to show. You
        can still <Link to="/explore">explore public apps</Link> and{' '}
        <Link to="/docs/platform">read how Pipit works</Link>.
      </p>
    </Notice>
  );
}

import { genericErrorMessage } from '@pipit/protocol';
import { Button } from './button';
import './error-screen.css';

interface ErrorScreenProps {
  /** Set when the failure came from the server; the same digest is in the server log. */
  digest?: string | undefined;
  onRetry?: () => void;
}

/** docs/product/errors.md's generic fallback, word for word, with the real host. */
export function ErrorScreen({ digest, onRetry }: ErrorScreenProps) {
  return (
    <div className="error-screen">
      <div className="error-screen__inner">
        <h1 className="error-screen__message" data-testid="error-message">
          {genericErrorMessage(window.location.host)}
        </h1>
        {digest ? (
          <p className="error-screen__digest">
            Digest: <code data-testid="error-digest">{digest}</code>
          </p>
        ) : null}
        <div className="row">
          <Button onClick={onRetry ?? (() => window.location.reload())}>Try again</Button>
          <a href="/">Go to the home page</a>
        </div>
      </div>
    </div>
  );
}

import { type ErrorComponentProps, useRouter } from '@tanstack/react-router';
import { useEffect } from 'react';
import { ErrorScreen } from '../../ui/error-screen';
import { Notice } from '../../ui/notice';
import { Page } from '../../ui/page';
import { Button } from '../../ui/button';
import { ApiRequestError, OfflineError } from '../../platform/api/request';

/**
 * What a route shows when loading or rendering it failed. Offline is a normal state, not an error:
 * it says so and offers to try again. Anything else is docs/product/errors.md's generic message,
 * with the server's digest when the failure came from the server.
 */
export function RouteError({ error, reset }: ErrorComponentProps) {
  const router = useRouter();
  const retry = () => {
    reset();
    void router.invalidate();
  };

  useEffect(() => {
    if (!(error instanceof OfflineError)) console.error(error);
  }, [error]);

  if (error instanceof OfflineError) {
    return (
      <Page title="You’re offline" width="prose">
        <Notice tone="offline">
          This page needs the server and has not been opened on this device before, so there is no
          copy to show. It will load once you are back online.
        </Notice>
        <Button onClick={retry}>Try again</Button>
      </Page>
    );
  }
  const digest = error instanceof ApiRequestError ? error.digest : undefined;
  return <ErrorScreen digest={digest} onRetry={retry} />;
}

import type { AppDefinition } from '@pipit/app-definition';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { Button } from '../../ui/button';
import { ButtonLink } from '../../ui/button-link';
import { Notice } from '../../ui/notice';
import { useSession } from '../../platform/session/session';

/**
 * Remix: signed in, copies the published version into a new app of mine and opens its editor
 * (offline too: the copy is made on this device). Anonymous, it explains and offers to sign up.
 */
export function RemixButton({
  appId,
  version,
  definition,
}: {
  appId: string;
  version: number;
  definition: AppDefinition;
}) {
  const { account } = useSession();
  const navigate = useNavigate();
  const [state, setState] = useState<'idle' | 'prompt' | 'busy' | 'failed'>('idle');

  const remix = async () => {
    if (!account) {
      setState('prompt');
      return;
    }
    setState('busy');
    try {
      // The studio's storage (Dexie, Yjs) loads when someone remixes, not with the page.
      const { remixApp } = await import('./remix');
      const id = await remixApp(account.id, { appId, version, definition });
      await navigate({ to: '/apps/$id/edit', params: { id } });
    } catch (error) {
      console.error('Could not remix the app:', error);
      setState('failed');
    }
  };

  return (
    <>
      <Button variant="secondary" onClick={() => void remix()} disabled={state === 'busy'}>
        {state === 'busy' ? 'Copying…' : 'Remix'}
      </Button>
      {state === 'prompt' ? (
        <div className="app-page__prompt">
          <Notice tone="info" title="Sign up to remix this app">
            <p>
              A remix is your own copy of this app, in your studio, to change as you like. It keeps
              a link to the original.
            </p>
            <div className="row">
              <ButtonLink to="/signup" search={{ redirect: `/apps/${appId}` }} size="small">
                Sign up
              </ButtonLink>
              <Link to="/login" search={{ redirect: `/apps/${appId}` }}>
                I have an account
              </Link>
            </div>
          </Notice>
        </div>
      ) : null}
      {state === 'failed' ? (
        <div className="app-page__prompt">
          <Notice tone="danger" live="alert">
            The copy couldn’t be saved on this device. Check that the browser allows this site to
            store data, then try again.
          </Notice>
        </div>
      ) : null}
    </>
  );
}

import type { PublishedApp } from '@pipit/protocol';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { Button } from '../../ui/button';
import { useSession } from '../../platform/session/session';
import { libraryListing } from './library-listing';

/** Keeps the app in my library without opening it (on this device; signed in, on all of mine). */
export function SaveButton({ app }: { app: PublishedApp }) {
  const { account } = useSession();
  const [state, setState] = useState<'idle' | 'saved' | 'failed'>('idle');
  const save = () => {
    // The library's storage (Dexie) loads when someone saves, not with the page.
    import('../../sync/library/library')
      .then(({ saveToLibrary }) => saveToLibrary(account?.id ?? null, libraryListing(app)))
      .then(
        () => setState('saved'),
        (error: unknown) => {
          console.warn('Could not save the app to the library:', error);
          setState('failed');
        },
      );
  };
  return (
    <>
      <Button variant="ghost" onClick={save} disabled={state === 'saved'}>
        {state === 'saved' ? 'Saved' : 'Save to library'}
      </Button>
      <span className="app-page__saved" role="status">
        {state === 'saved' ? (
          <>
            In <Link to="/apps">your library</Link>.
          </>
        ) : state === 'failed' ? (
          'It couldn’t be saved on this device.'
        ) : null}
      </span>
    </>
  );
}

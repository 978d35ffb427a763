import { useLayoutEffect } from 'react';
import { dropFirstScreen, firstScreenKeeping } from '../../sync/device/first-screen-shown';
import { Button } from '../../ui/button';
import './pwa-not-found.css';

export type PwaProblem = 'not-found' | 'deleted' | 'offline' | 'draft' | 'unreadable';

const TEXTS: Record<PwaProblem, { icon: string; title: string; body: string }> = {
  'not-found': {
    icon: '🪺',
    title: 'This app isn’t available',
    body: 'It may have been deleted, or it is private and not shared with you. If you installed it, you can remove it from your home screen.',
  },
  deleted: {
    icon: '🍂',
    title: 'This app was deleted',
    body: 'Its creator deleted it for good, so it no longer opens. If you installed it, you can remove it from your home screen.',
  },
  offline: {
    icon: '📡',
    title: 'This app isn’t available',
    body: 'Pipit can’t be reached right now — you may be offline — and this app hasn’t been opened on this device before, so there is no copy of it here yet. Connect to the internet and reload: from then on it works offline too.',
  },
  draft: {
    icon: '🐣',
    title: 'This app isn’t published yet',
    body: 'Its creator hasn’t published a version yet. Once they do, it opens here.',
  },
  unreadable: {
    icon: '🔄',
    title: 'This app needs a newer Pipit',
    body: 'It was published with a newer version of Pipit than this device has. Reload to get the latest version; your data is safe.',
  },
};

/**
 * `/apps/{id}/pwa` when the app cannot be run: full screen, without Pipit's navigation, since this
 * is what an installed app opens to.
 */
export function PwaNotFound({
  problem = 'not-found',
  note,
  appId,
}: {
  problem?: PwaProblem;
  /** The app that cannot run: a deleted one, or one no longer theirs to see, is not shown again. */
  appId?: string;
  /** A sentence more, said once it is true (the app was taken out of the person's library). */
  note?: string | undefined;
}) {
  const text = TEXTS[problem];
  // Not the app: its first screen kept on this device (sync/device/first-screen.ts) goes before
  // this is painted, and is forgotten when the app can never be shown again.
  useLayoutEffect(() => {
    dropFirstScreen();
    if (appId && (problem === 'deleted' || problem === 'not-found')) {
      void firstScreenKeeping()
        .then(({ forgetFirstScreen }) => forgetFirstScreen(appId))
        .catch(() => {});
    }
  }, [appId, problem]);
  return (
    <main className="pwa-missing" id="main">
      <div className="pwa-missing__inner">
        <p className="pwa-missing__icon" aria-hidden="true">
          {text.icon}
        </p>
        <h1>{text.title}</h1>
        <p>{text.body}</p>
        {note ? <p role="status">{note}</p> : null}
        {problem === 'offline' || problem === 'unreadable' ? (
          <Button onClick={() => location.reload()}>Reload</Button>
        ) : (
          <a href="/explore">Find other apps on Pipit</a>
        )}
      </div>
    </main>
  );
}

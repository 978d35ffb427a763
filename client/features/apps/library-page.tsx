import { appPwaPaths, type LibraryEntry } from '@pipit/protocol';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { removeFromLibrary, restoreToLibrary, useLibrary } from '../../sync/library/library';
import { AppIcon } from '../../ui/app-icon';
import { Button, buttonClass } from '../../ui/button';
import { ButtonLink } from '../../ui/button-link';
import { EmptyState } from '../../ui/empty-state';
import { timeAgo } from '../../ui/format-time';
import { Loading } from '../../ui/loading';
import { Page } from '../../ui/page';
import { Toast } from '../../ui/toast';
import { useSession } from '../../platform/session/session';
import '../../ui/app-list.css';

function usedLine(entry: LibraryEntry): string {
  const parts: string[] = [];
  if (entry.openedAt > 0) parts.push(`Opened ${timeAgo(entry.openedAt)}`);
  else if (entry.savedAt) parts.push(`Saved ${timeAgo(entry.savedAt)}`);
  if (entry.installedAt) parts.push('Installed');
  if (entry.version !== null) parts.push(`Version ${entry.version}`);
  return parts.join(' · ');
}

/**
 * `/apps`: apps this person opened, saved or installed, the one used last first. Kept on this
 * device (so it works offline) and, signed in, in their account, so it follows them.
 */
export function LibraryPage() {
  const { account } = useSession();
  const accountId = account?.id ?? null;
  const entries = useLibrary(accountId);
  const [removed, setRemoved] = useState<LibraryEntry | null>(null);

  const remove = (entry: LibraryEntry) => {
    setRemoved(entry);
    removeFromLibrary(accountId, entry).catch((error: unknown) =>
      console.warn('Could not remove the app from your library:', error),
    );
  };
  const undo = (entry: LibraryEntry) => {
    setRemoved(null);
    restoreToLibrary(accountId, entry).catch((error: unknown) =>
      console.warn('Could not put the app back in your library:', error),
    );
  };

  return (
    <Page
      title="Your apps"
      lead={
        accountId
          ? 'Apps you open, save or install. They work offline, and your library follows you to every device you sign in on.'
          : 'Apps you open, save or install are kept here, on this device, and work offline. Sign in to have them on all your devices.'
      }
      actions={
        <ButtonLink to="/explore" variant="secondary">
          Find apps
        </ButtonLink>
      }
    >
      {entries === undefined ? (
        <Loading label="Loading your library…" />
      ) : entries.length === 0 ? (
        <EmptyState
          icon="📚"
          title="Your library is empty"
          action={<ButtonLink to="/explore">Find an app</ButtonLink>}
        >
          Open an app from someone’s profile or from Explore and it appears here. Without an account
          it stays on this device; signed in, it follows you to your other devices.
        </EmptyState>
      ) : (
        <ul className="app-list" aria-label="Your apps">
          {entries.map((entry) => (
            <LibraryRow key={entry.appId} entry={entry} onRemove={() => remove(entry)} />
          ))}
        </ul>
      )}
      {removed ? (
        <Toast
          actions={
            <>
              <Button size="small" onClick={() => undo(removed)}>
                Undo
              </Button>
              <Button size="small" variant="ghost" onClick={() => setRemoved(null)}>
                Dismiss
              </Button>
            </>
          }
        >
          Removed “{removed.title || 'Untitled app'}” from your library.
        </Toast>
      ) : null}
    </Page>
  );
}

function LibraryRow({ entry, onRemove }: { entry: LibraryEntry; onRemove: () => void }) {
  const title = entry.title || 'Untitled app';
  return (
    <li className="app-list__row">
      <AppIcon icon={entry.icon} />
      <div className="app-list__main">
        <Link className="app-list__title" to="/apps/$id" params={{ id: entry.appId }}>
          {title}
        </Link>
        <p className="app-list__meta">
          {entry.author ? (
            <>
              By{' '}
              <Link to="/$username" params={{ username: entry.author }}>
                @{entry.author}
              </Link>{' '}
              ·{' '}
            </>
          ) : null}
          {usedLine(entry)}
        </p>
      </div>
      <div className="app-list__actions">
        {/* Full page loads: the server sends these pages with the app's own manifest. */}
        <a
          className={buttonClass('primary', 'small')}
          href={appPwaPaths(entry.appId).page}
          aria-label={`Open ${title}`}
        >
          Open
        </a>
        <a
          className={buttonClass('secondary', 'small')}
          href={`/apps/${entry.appId}/install`}
          aria-label={`Install ${title}`}
        >
          Install
        </a>
        <Button variant="ghost" size="small" onClick={onRemove} aria-label={`Remove ${title}`}>
          Remove
        </Button>
      </div>
    </li>
  );
}

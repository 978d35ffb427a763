import { touchedWords } from '@pipit/app-definition';
import type { AppChange } from '@pipit/protocol';
import { useEffect, useState } from 'react';
import { loadChanges } from '../../../platform/history';
import { timeAgo } from '../../../ui/format-time';
import { authorWords } from '../common/change-authors';
import { useEditor } from '../common/editor-context';

/** How many of a thing's changes the inspector lists. */
const SHOWN = 5;
/** The server writes who changed what every 2 s: a new edit's author is asked after this. */
const AFTER_AN_EDIT_MS = 2_500;

type Loaded =
  | { key: string; changes: AppChange[]; offline: false }
  | { key: string; changes: null; offline: boolean };

/**
 * A selected thing's recent changes and who made them (docs/product/history.md#who-changed-what):
 * "Ben changed the text 2 hours ago", newest first; asked again a moment after it changes. The
 * demo, kept on this device only, has none.
 */
export function RecentChanges({
  entity,
  id,
  version,
}: {
  entity: string;
  id: string;
  /** Changes when the thing does (its properties): its changes are asked again a moment later. */
  version: unknown;
}) {
  const { syncedAppId, definition } = useEditor();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const key = `${syncedAppId}:${entity}:${id}`;
  const shown = loaded?.key === key ? loaded : null;
  useEffect(() => {
    if (!syncedAppId) return;
    let live = true;
    const timer = setTimeout(
      () => {
        loadChanges(syncedAppId, { entity: { entity, id } }).then(
          (list) =>
            live &&
            setLoaded(
              list
                ? { key, changes: list.changes.slice(0, SHOWN), offline: false }
                : { key, changes: null, offline: true },
            ),
          () => live && setLoaded({ key, changes: null, offline: false }),
        );
      },
      shown ? AFTER_AN_EDIT_MS : 0,
    );
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // `shown` only chooses the delay; `version` asks again after an edit.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, version]);
  if (!syncedAppId) return null;
  return (
    <section className="properties-section" aria-labelledby={`recent-${id}`}>
      <h3 className="properties-section__title" id={`recent-${id}`}>
        Recent changes
      </h3>
      {shown === null ? (
        <p className="editor-muted" role="status">
          Looking up who changed it…
        </p>
      ) : shown.changes === null ? (
        <p className="editor-muted">
          {shown.offline
            ? 'Who changed it shows when you’re online: the server knows who sent each change.'
            : 'Who changed it can’t be shown right now.'}
        </p>
      ) : shown.changes.length === 0 ? (
        <p className="editor-muted">No changes recorded yet.</p>
      ) : (
        <ul className="recent-changes">
          {shown.changes.map((change, index) => (
            <li key={`${change.at}:${index}`}>
              {authorWords(change)} {touchedWords(definition, entity, id, change.paths)}{' '}
              <time className="editor-muted" dateTime={new Date(change.at).toISOString()}>
                {timeAgo(change.at)}
              </time>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

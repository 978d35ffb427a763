import { touchedWords } from '@pipit/app-definition';
import { timeAgo } from '../../../ui/format-time';
import { authorWords, useChanges } from '../common/change-authors';
import { useEditor } from '../common/editor-context';

/** How many of a thing's changes the inspector lists. */
const SHOWN = 5;

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
  const shown = useChanges(syncedAppId, { entity: { entity, id } }, version);
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
          {shown.changes.slice(0, SHOWN).map((change, index) => (
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

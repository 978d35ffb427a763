import type { EntityChange } from '@pipit/app-definition';
import './changes.css';

export const CHANGE_WORDS: Record<EntityChange['change'], string> = {
  added: 'Added',
  removed: 'Removed',
  changed: 'Changed',
  moved: 'Moved',
};

/**
 * What differs between two versions of an app, one line per thing: the History panel's
 * comparison and what a remix would pull from its original.
 */
export function ChangeList({
  changes,
  label,
  showProperties = false,
}: {
  changes: readonly EntityChange[];
  label: string;
  /** Name which properties of a changed thing differ. */
  showProperties?: boolean;
}) {
  return (
    <ul className="change-list" aria-label={label}>
      {changes.map((change) => (
        <li key={`${change.entity}:${change.id}:${change.change}`}>
          <span className={`change-list__what change-list__what--${change.change}`}>
            {CHANGE_WORDS[change.change]}
          </span>{' '}
          {change.name}
          {change.where ? <span className="editor-muted"> in {change.where}</span> : null}
          {showProperties && change.properties.length > 0 ? (
            <span className="editor-muted"> ({change.properties.join(', ')})</span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

import type { EntityChange } from '@pipit/app-definition';
import { timeAgo } from '../../../ui/format-time';
import { type ChangeAuthors, changeKey } from './change-authors';
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
  authors,
}: {
  changes: readonly EntityChange[];
  label: string;
  /** Name which properties of a changed thing differ. */
  showProperties?: boolean;
  /** Who changed each thing, when known (History and publishing; not a proposal). */
  authors?: ReadonlyMap<string, ChangeAuthors> | null | undefined;
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
          <Authors of={authors?.get(changeKey(change.entity, change.id))} />
        </li>
      ))}
    </ul>
  );
}

/** " — Ben, AI for Ada, 2 hours ago" after a change's line. */
function Authors({ of }: { of: ChangeAuthors | undefined }) {
  if (!of) return null;
  return (
    <span className="change-list__who">
      {' — '}
      {of.who.join(', ')}, <time dateTime={new Date(of.at).toISOString()}>{timeAgo(of.at)}</time>
    </span>
  );
}

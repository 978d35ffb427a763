import type { MergeConflict } from '@pipit/app-definition';
import { Button } from '../../../ui/button';
import './changes.css';

/** A value as a person reads it in a conflict, kept short. */
function shown(value: unknown, property: string): string {
  if (value === undefined) return 'deleted';
  // Kept on one side, deleted on the other: the value is the whole thing, so just say it is there.
  if (property === 'exists') return 'kept';
  const text = typeof value === 'string' ? `“${value}”` : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/**
 * What a merge kept as it was here though the other side changed it too (pulled changes, an AI
 * suggestion taken in): one line each, with the other side's value to take instead.
 */
export function ConflictList({
  conflicts,
  taken,
  theirs,
  onTake,
}: {
  conflicts: readonly MergeConflict[];
  /** The indexes of the conflicts whose other value was taken. */
  taken: ReadonlySet<number>;
  /** The other side, possessive: "the original’s", "the suggestion’s". */
  theirs: string;
  onTake(conflict: MergeConflict, index: number): void;
}) {
  return (
    <ul className="change-list" aria-label="Conflicts">
      {conflicts.map((conflict, index) => (
        <li key={`${conflict.entity}:${conflict.id}:${conflict.property}`}>
          <strong>{conflict.name}</strong>
          {conflict.where ? <span className="editor-muted"> in {conflict.where}</span> : null},{' '}
          {conflict.label}: yours {shown(conflict.ours, conflict.property)}, {theirs}{' '}
          {shown(conflict.theirs, conflict.property)}.{' '}
          {taken.has(index) ? (
            <span role="status">Using {theirs}.</span>
          ) : (
            <Button
              variant="secondary"
              size="small"
              onClick={() => onTake(conflict, index)}
              aria-label={`Use ${theirs} ${conflict.label} for ${conflict.name}`}
            >
              Use {theirs}
            </Button>
          )}
        </li>
      ))}
    </ul>
  );
}

import {
  type AppDefinition,
  type ChangePart,
  closeParts,
  mergeDefinitions,
  type MergeResult,
  type ReadDefinition,
} from '@pipit/app-definition';
import { useDeferredValue, useId, useMemo, useState } from 'react';
import { Button } from '../../../ui/button';
import { Notice } from '../../../ui/notice';
import { CHANGE_WORDS } from './change-list';
import { PhonePreview } from './phone-preview';

/*
 * A change made on the side reviewed before anything changes in the app — an Ask AI suggestion
 * (docs/product/ai-builder.md), a draft merged back (docs/product/drafts.md): each part of it as
 * History names changes, ticked to take it or not (a part takes what it needs; leaving one out
 * leaves out what needs it), and the app as it would look with the parts ticked.
 */

/** A change to review: the app it was made from, the app with it, and its parts. */
export interface ProposedChange {
  base: AppDefinition;
  proposed: AppDefinition;
  parts: ChangePart[];
}

/** The parts ticked, merged into the app as it is now. */
export function takenInto(
  change: ProposedChange,
  now: ReadDefinition | AppDefinition,
  taken: ReadonlySet<string>,
): MergeResult {
  return mergeDefinitions(change.base, change.proposed, now, { taken });
}

const partLabel = (part: ChangePart) =>
  `${CHANGE_WORDS[part.change]} ${part.name}${part.where ? ` in ${part.where}` : ''}`;

export function PartReview({
  change,
  now,
  taken,
  onTake,
  failedPreview,
}: {
  change: ProposedChange;
  /** The app as it is now (collaborators may have changed it since the change was made). */
  now: ReadDefinition | AppDefinition;
  taken: ReadonlySet<string>;
  onTake(taken: Set<string>): void;
  /** What to do when the parts no longer fit the app, said when its preview fails. */
  failedPreview: string;
}) {
  const [previewing, setPreviewing] = useState(false);
  // What a tick or an untick took or left out besides, said aloud (the boxes change silently).
  const [also, setAlso] = useState('');
  // Worked out again as collaborators edit, behind what the person is doing.
  const deferredNow = useDeferredValue(now);
  const id = useId();
  const needsId = (key: string) => `${id}-needs-${key.replace(/[^a-zA-Z0-9_-]/g, '_')}`;
  const byKey = useMemo(
    () => new Map(change.parts.map((part) => [part.key, part])),
    [change.parts],
  );
  const preview = useMemo(() => {
    if (!previewing) return null;
    try {
      return takenInto(change, deferredNow, taken).definition;
    } catch {
      return 'failed' as const;
    }
  }, [previewing, change, deferredNow, taken]);
  const toggle = (key: string, on: boolean) => {
    const chosen = new Set(taken);
    if (on) chosen.add(key);
    else chosen.delete(key);
    const next = closeParts(change.parts, chosen, { key, taken: on });
    const others = change.parts.filter(
      (part) => part.key !== key && next.has(part.key) !== taken.has(part.key),
    );
    setAlso(
      others.length === 0
        ? ''
        : `${on ? 'Also taken' : 'Also left out'}: ${others.map(partLabel).join('; ')}.`,
    );
    onTake(next);
  };
  return (
    <>
      <fieldset className="part-review">
        <legend>
          Take {taken.size} of {change.parts.length}{' '}
          {change.parts.length === 1 ? 'change' : 'changes'}
        </legend>
        <ul>
          {change.parts.map((part) => (
            <li key={part.key}>
              <label className="part-review__part">
                <input
                  type="checkbox"
                  checked={taken.has(part.key)}
                  aria-describedby={part.needs.length > 0 ? needsId(part.key) : undefined}
                  onChange={(e) => toggle(part.key, e.target.checked)}
                />
                <span>
                  <span className={`change-list__what change-list__what--${part.change}`}>
                    {CHANGE_WORDS[part.change]}
                  </span>{' '}
                  {part.name}
                  {part.where ? <span className="editor-muted"> in {part.where}</span> : null}
                  {part.properties.length > 0 ? (
                    <span className="editor-muted"> ({part.properties.join(', ')})</span>
                  ) : null}
                </span>
              </label>
              {part.needs.length > 0 ? (
                <p className="part-review__needs" id={needsId(part.key)}>
                  Needs:{' '}
                  {part.needs
                    .map((key) => byKey.get(key))
                    .filter((need) => need !== undefined)
                    .map(partLabel)
                    .join('; ')}
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      </fieldset>
      <p className="visually-hidden" role="status">
        {also}
      </p>
      <Button
        variant="secondary"
        size="small"
        aria-expanded={previewing}
        onClick={() => setPreviewing(!previewing)}
      >
        {previewing ? 'Hide the preview' : 'Preview the app with these changes'}
      </Button>
      {preview === 'failed' ? (
        <Notice tone="danger" title="This preview can’t be shown" live="alert">
          <p>{failedPreview}</p>
        </Notice>
      ) : preview ? (
        <PhonePreview definition={preview} label="The app with the changes taken, read-only" />
      ) : null}
    </>
  );
}

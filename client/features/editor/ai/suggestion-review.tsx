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
import { CHANGE_WORDS } from '../common/change-list';
import { PhonePreview } from '../common/phone-preview';

/*
 * An AI's suggestion reviewed before anything changes (docs/product/ai-builder.md): each part of
 * it as History names changes, ticked to take it or not (a part takes what it needs; leaving one
 * out leaves out what needs it), and the app as it would look with the parts ticked.
 */

/** A suggestion being reviewed: the app when it was made, and as the AI would make it. */
export interface Suggestion {
  /** Its id, as kept on the server for every editor to review. */
  id: string;
  /** Who asked, when it was not this person (a suggestion kept for review); null: me. */
  by: string | null;
  asked: string;
  summary: string[];
  base: AppDefinition;
  proposed: AppDefinition;
  parts: ChangePart[];
}

/** The parts ticked, merged into the app as it is now. */
export function takenInto(
  suggestion: Suggestion,
  now: ReadDefinition | AppDefinition,
  taken: ReadonlySet<string>,
): MergeResult {
  return mergeDefinitions(suggestion.base, suggestion.proposed, now, { taken });
}

const partLabel = (part: ChangePart) =>
  `${CHANGE_WORDS[part.change]} ${part.name}${part.where ? ` in ${part.where}` : ''}`;

export function SuggestionReview({
  suggestion,
  now,
  taken,
  onTake,
}: {
  suggestion: Suggestion;
  /** The app as it is now (collaborators may have changed it since the suggestion was made). */
  now: ReadDefinition | AppDefinition;
  taken: ReadonlySet<string>;
  onTake(taken: Set<string>): void;
}) {
  const [previewing, setPreviewing] = useState(false);
  // What a tick or an untick took or left out besides, said aloud (the boxes change silently).
  const [also, setAlso] = useState('');
  // Worked out again as collaborators edit, behind what the person is doing.
  const deferredNow = useDeferredValue(now);
  const id = useId();
  const needsId = (key: string) => `${id}-needs-${key.replace(/[^a-zA-Z0-9_-]/g, '_')}`;
  const byKey = useMemo(
    () => new Map(suggestion.parts.map((part) => [part.key, part])),
    [suggestion.parts],
  );
  const preview = useMemo(() => {
    if (!previewing) return null;
    try {
      return takenInto(suggestion, deferredNow, taken).definition;
    } catch {
      return 'failed' as const;
    }
  }, [previewing, suggestion, deferredNow, taken]);
  const toggle = (key: string, on: boolean) => {
    const chosen = new Set(taken);
    if (on) chosen.add(key);
    else chosen.delete(key);
    const next = closeParts(suggestion.parts, chosen, { key, taken: on });
    const others = suggestion.parts.filter(
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
      <figure className="ask-ai__asked">
        <figcaption>{suggestion.by ? `${suggestion.by} asked` : 'You asked'}</figcaption>
        <blockquote dir="auto">{suggestion.asked}</blockquote>
      </figure>
      <p>
        The AI suggests these changes. Nothing changes in the app until you accept; untick what you
        don’t want. Undo takes what you accept back in one step.
      </p>
      <fieldset className="ask-ai__parts">
        <legend>
          Take {taken.size} of {suggestion.parts.length}{' '}
          {suggestion.parts.length === 1 ? 'change' : 'changes'}
        </legend>
        <ul>
          {suggestion.parts.map((part) => (
            <li key={part.key}>
              <label className="ask-ai__part">
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
                <p className="ask-ai__needs" id={needsId(part.key)}>
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
          <p>These changes no longer fit the app as it is now. Ask for changes, or ask again.</p>
        </Notice>
      ) : preview ? (
        <PhonePreview definition={preview} label="The app with the changes taken, read-only" />
      ) : null}
    </>
  );
}

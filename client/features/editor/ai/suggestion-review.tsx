import {
  type AppDefinition,
  type ChangePart,
  closeParts,
  mergeDefinitions,
  type MergeResult,
  type ReadDefinition,
} from '@pipit/app-definition';
import { useMemo, useState } from 'react';
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
  const byKey = useMemo(
    () => new Map(suggestion.parts.map((part) => [part.key, part])),
    [suggestion.parts],
  );
  const preview = useMemo(() => {
    if (!previewing) return null;
    try {
      return takenInto(suggestion, now, taken).definition;
    } catch {
      return 'failed' as const;
    }
  }, [previewing, suggestion, now, taken]);
  const toggle = (key: string, on: boolean) => {
    const chosen = new Set(taken);
    if (on) chosen.add(key);
    else chosen.delete(key);
    onTake(closeParts(suggestion.parts, chosen, { key, taken: on }));
  };
  return (
    <>
      <figure className="ask-ai__asked">
        <figcaption>You asked</figcaption>
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
                  {part.needs.length > 0 ? (
                    <span className="ask-ai__needs">
                      Needs:{' '}
                      {part.needs
                        .map((key) => byKey.get(key))
                        .filter((need) => need !== undefined)
                        .map(partLabel)
                        .join('; ')}
                    </span>
                  ) : null}
                </span>
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
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

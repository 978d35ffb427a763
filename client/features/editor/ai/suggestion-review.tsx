import type { AppDefinition, ChangePart, ReadDefinition } from '@pipit/app-definition';
import { PartReview } from '../common/part-review';

export { takenInto } from '../common/part-review';

/*
 * An AI's suggestion reviewed before anything changes (docs/product/ai-builder.md): what was
 * asked, then its parts to take or leave (common/part-review.tsx).
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
      <PartReview
        change={suggestion}
        now={now}
        taken={taken}
        onTake={onTake}
        failedPreview="These changes no longer fit the app as it is now. Ask for changes, or ask again."
      />
    </>
  );
}

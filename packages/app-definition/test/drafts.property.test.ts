import { test } from '@fast-check/vitest';
import { describe } from 'vitest';
import { changeParts, mergeDefinitions } from '../src/index';
import { anyEdits, baseWithReminders, checkSides, editedSide, RUNS, sides } from './merge-sides';

/*
 * A draft's life (docs/product/drafts.md) on random apps and edits: the draft and the app change
 * at once; Update draft merges the app's changes into the draft (the draft's kept on a conflict);
 * the app changes again; the draft is merged back whole, part by part, into the app as it is then
 * (the app's kept on a conflict). Each merge must give a valid definition that keeps its own
 * side's edits, takes the other side's, and lists exactly the properties both changed
 * (`checkSides`, merge-sides.ts).
 */
describe('a draft updated and merged back, on random edits of random apps', () => {
  test.prop([baseWithReminders, anyEdits, anyEdits, anyEdits], RUNS)(
    'both merges keep each side’s edits and list exactly the conflicts',
    (base, appEdits, draftEdits, laterAppEdits) => {
      const app = editedSide(base, appEdits, 'a');
      const draft = editedSide(base, draftEdits, 'd');
      // Update draft: the app's changes since the base come in; the app becomes the base.
      const updated = mergeDefinitions(base, app, draft);
      checkSides(sides(base, app, draft, updated));
      // The app keeps changing; then the draft is merged back with every part taken.
      const appLater = editedSide(app, laterAppEdits, 'b');
      const taken = new Set(changeParts(app, updated.definition).map((part) => part.key));
      const merged = mergeDefinitions(app, updated.definition, appLater, { taken });
      checkSides(sides(app, updated.definition, appLater, merged));
    },
  );
});

import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import {
  type AppDefinition,
  changeParts,
  closeParts,
  diffDefinitions,
  mergeDefinitions,
} from '../src/index';
import {
  checkSides,
  editedSide,
  facts,
  paths,
  same,
  RUNS,
  sides,
  twoSidesWithReminders,
  withInvalid,
} from './merge-sides';

/*
 * A proposed change (an AI's suggestion, a draft) taken part by part into an app that kept
 * changing meanwhile: `mergeDefinitions` with `taken`. Random apps and edits from merge-sides.ts:
 * THEIRS is the proposal made from BASE, OURS the app as collaborators changed it since.
 */

const keysOf = (base: AppDefinition, after: AppDefinition) =>
  new Set(changeParts(base, after).map((part) => part.key));

/** Each of `extra` changed only where it named something a taken part removed. */
function checkOnlyWhatRemovalsDo(
  base: AppDefinition,
  partial: AppDefinition,
  taken: ReadonlySet<string>,
  extra: string[],
) {
  const before = facts(base);
  const after = facts(partial);
  const removed = [...taken].filter((key) => !after.has(key)).map((key) => key.split(':')[1]!);
  for (const key of extra) {
    const old = before.get(key);
    const now = after.get(key);
    expect(old && now, `${key} was neither added nor removed`).toBeTruthy();
    for (const path of paths(old, now)) {
      if (same(old!.get(path), now!.get(path))) continue;
      const names = JSON.stringify([path.split('.'), old!.get(path)]);
      expect(
        removed.some((id) => names.includes(JSON.stringify(id))),
        `${key} ${path} changed with nothing taken`,
      ).toBe(true);
    }
  }
}

describe('taking a proposed change part by part', () => {
  test.prop([twoSidesWithReminders, fc.array(fc.boolean(), { minLength: 1 })], RUNS)(
    'takes exactly the parts chosen (and what they need), and merges them as a whole change would',
    ({ base, ourEdits, theirEdits, invalid }, picks) => {
      const ours = withInvalid(editedSide(base, ourEdits, 'o'), invalid);
      const theirs = editedSide(base, theirEdits, 't');
      const parts = changeParts(base, theirs);
      const chosen = new Set(parts.filter((_, i) => picks[i % picks.length]).map((p) => p.key));
      const taken = closeParts(parts, chosen);
      // Closed: every part taken has what it needs.
      for (const part of parts) {
        if (taken.has(part.key)) for (const need of part.needs) expect(taken).toContain(need);
      }
      // The proposal as far as it was taken holds those parts, and no other change but what a
      // removal taken does to what stays (a record's value of a removed field).
      const partial = mergeDefinitions(base, theirs, base, { taken }).definition;
      const changed = keysOf(base, partial);
      for (const key of taken) expect(changed).toContain(key);
      checkOnlyWhatRemovalsDo(
        base,
        partial,
        taken,
        [...changed].filter((k) => !taken.has(k)),
      );
      // Into the app as it is now, with every guarantee of a merge: valid, the app's edits kept,
      // the parts taken arrive or a conflict says why not, the conflicts exactly what both changed.
      checkSides(sides(base, partial, ours, mergeDefinitions(base, theirs, ours, { taken })));
    },
  );

  test.prop([twoSidesWithReminders], { ...RUNS, numRuns: 100 })(
    'takes all of it as the whole merge does, and none of it as no change',
    ({ base, ourEdits, theirEdits, invalid }) => {
      const ours = withInvalid(editedSide(base, ourEdits, 'o'), invalid);
      const theirs = editedSide(base, theirEdits, 't');
      const all = closeParts(changeParts(base, theirs), keysOf(base, theirs));
      expect(mergeDefinitions(base, theirs, ours, { taken: all })).toEqual(
        mergeDefinitions(base, theirs, ours),
      );
      const none = mergeDefinitions(base, theirs, ours, { taken: new Set() });
      expect(none).toEqual(mergeDefinitions(base, base, ours));
      expect(none.incoming).toEqual(diffDefinitions(base, base));
    },
  );

  test.prop([twoSidesWithReminders, fc.array(fc.boolean(), { minLength: 1 }), fc.nat()], RUNS)(
    'leaves out what needs a part unticked, and takes what a ticked part needs',
    ({ base, theirEdits }, picks, n) => {
      const theirs = editedSide(base, theirEdits, 't');
      const parts = changeParts(base, theirs);
      if (parts.length === 0) return;
      const chosen = closeParts(
        parts,
        new Set(parts.filter((_, i) => picks[i % picks.length]).map((p) => p.key)),
      );
      const part = parts[n % parts.length]!;
      const without = closeParts(parts, chosen, { key: part.key, taken: false });
      expect(without).not.toContain(part.key);
      for (const other of parts) {
        if (without.has(other.key)) for (const need of other.needs) expect(without).toContain(need);
      }
      const withIt = closeParts(parts, new Set([...chosen, part.key]), {
        key: part.key,
        taken: true,
      });
      expect(withIt).toContain(part.key);
      for (const need of part.needs) expect(withIt).toContain(need);
    },
  );
});

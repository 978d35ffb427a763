import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { diffDefinitions, mergeDefinitions } from '../src/index';
import {
  anyEdits,
  baseWithReminders,
  checkAll,
  editedSide,
  IDENTITY_RUNS,
  RUNS,
  twoSides,
  twoSidesWithReminders,
  withInvalid,
} from './merge-sides';

/*
 * Seeded property tests of the three-way merge (the sides and checks: merge-sides.ts). A failure
 * prints the seed and the shrunk counter-example; replay it with
 * `{ seed, path, endOnFailure: true }`.
 */

describe('mergeDefinitions, on random edits of random apps', () => {
  test.prop([twoSidesWithReminders], RUNS)(
    'gives a valid definition that keeps the remix’s edits, takes the rest, and lists the conflicts',
    checkAll,
  );

  // Caught a component the remix moved out of a screen the original deleted, kept (the remix
  // worked on it) but with no conflict of its own: the screen's conflict was taken to cover it,
  // though it no longer sat in that screen.
  test.prop([twoSides], {
    seed: -288632107,
    path: '1292:0:1:5:4:4:5:4:4:4:4:5:5:5:5:5:5:5:6:8:8:8:8:9:10:10:10:10:14:12:13:13:13:13:13:13',
    endOnFailure: true,
  })('regression: a kept child moved out of a deleted parent has its own conflict', checkAll);

  test.prop([baseWithReminders, anyEdits, fc.boolean()], IDENTITY_RUNS)(
    'gives the remix back (less its invalid components) when the original did not change',
    (base, ourEdits, invalid) => {
      const ours = editedSide(base, ourEdits, 'o');
      const merged = mergeDefinitions(base, base, withInvalid(ours, invalid));
      expect(merged.definition).toEqual(ours);
      expect(merged.conflicts).toEqual([]);
      expect(merged.incoming.changes).toEqual([]);
    },
  );

  test.prop([baseWithReminders, anyEdits], IDENTITY_RUNS)(
    'gives the original back, with all its changes incoming, when the remix did not change',
    (base, theirEdits) => {
      const theirs = editedSide(base, theirEdits, 't');
      const merged = mergeDefinitions(base, theirs, base);
      expect(merged.definition).toEqual(theirs);
      expect(merged.conflicts).toEqual([]);
      expect(merged.incoming).toEqual(diffDefinitions(base, theirs));
    },
  );
});

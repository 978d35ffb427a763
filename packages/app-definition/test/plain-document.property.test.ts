import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import * as Y from 'yjs';
import { type AppDefinition, plainDocument, readDefinition, writeDefinition } from '../src/index';
import { anyEdits, baseWithReminders, editedSide, RUNS } from './merge-sides';

/*
 * The merge reads each definition it makes without a Yjs document (`plainDocument`): the reader
 * must find there exactly what it finds in a document `writeDefinition` wrote — the same order,
 * the same values, the same repairs of references into what is gone.
 */

/** What a device reads of the definition: written into a document, read back. */
function throughDocument(definition: AppDefinition) {
  const doc = new Y.Doc();
  writeDefinition(doc, JSON.parse(JSON.stringify(definition)) as AppDefinition);
  const read = readDefinition(doc);
  doc.destroy();
  return read;
}

/** The definition with some of its parents gone, their children's references left dangling. */
function withDangling(definition: AppDefinition, cut: number): AppDefinition {
  const pick = <T>(list: T[]) => list.filter((_, i) => (i + cut) % 3 !== 0);
  return {
    ...definition,
    collections: pick(definition.collections).map((c) => ({ ...c, fields: pick(c.fields) })),
    actions: pick(definition.actions),
    screens: definition.screens.length > 1 ? pick(definition.screens) : definition.screens,
  };
}

describe('reading a definition from plain maps', () => {
  test.prop([baseWithReminders, anyEdits, fc.nat(2), fc.boolean()], RUNS)(
    'reads what a document written with it reads',
    (base, list, cut, dangling) => {
      const edited = editedSide(base, list, 'o');
      const definition = dangling ? withDangling(edited, cut) : edited;
      expect(readDefinition(plainDocument(definition))).toEqual(throughDocument(definition));
    },
  );
});

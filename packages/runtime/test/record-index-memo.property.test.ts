import { type Field, fieldSchema, type ReadDefinition } from '@pipit/app-definition';
import * as engine from '@pipit/app-definition/formula';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formulaComputer, indexRecords, RecordIndexMemo } from '../src/index';
import type { RuntimeDataRecord } from '../src/runtime-data';
import * as relations from '../src/relations';

/**
 * An index kept between changes (RecordIndexMemo) shows exactly what one built afresh shows, after
 * any sequence of changes as the data's store gives them (a new list in which only the records
 * changed are new objects): values changed, links moved, records added and removed, in a task log
 * whose tasks link projects (a rollup each way, formulas over them) and whose notes link notes.
 */

const field = (id: string, type: Field['type'], extra: object = {}): Field =>
  fieldSchema.parse({ id, name: id, type, ...extra });

const definition: ReadDefinition = {
  meta: { title: 'Task log', currency: 'EUR' },
  collections: [
    {
      id: 'tasks',
      name: 'Tasks',
      fields: [
        field('title', 'text'),
        field('hours', 'number'),
        field('project', 'relation', { target: 'projects', multiple: true }),
        field('budget', 'rollup', { through: 'project', aggregate: 'sum', aggregateFieldId: 'b' }),
        field('cost', 'formula', { formula: '{hours} * 10' }),
        field('status', 'formula', { formula: 'IF({cost} > {budget}, "over", "ok")' }),
      ],
      records: [],
      sharing: 'private',
      recordRule: 'anyone',
    },
    {
      id: 'projects',
      name: 'Projects',
      fields: [
        field('name', 'text'),
        field('b', 'number'),
        field('count', 'rollup', { through: 'project', throughCollection: 'tasks' }),
        field('hoursIn', 'rollup', {
          through: 'project',
          throughCollection: 'tasks',
          aggregate: 'sum',
          aggregateFieldId: 'hours',
        }),
      ],
      records: [{ id: 'p0', values: { name: 'Creator’s', b: 100 } }],
      sharing: 'private',
      recordRule: 'anyone',
    },
    {
      id: 'notes',
      name: 'Notes',
      fields: [
        field('text', 'text'),
        field('seeAlso', 'relation', { target: 'notes' }),
        field('backlinks', 'rollup', { through: 'seeAlso', throughCollection: 'notes' }),
        field('shout', 'formula', { formula: 'UPPER({text})' }),
      ],
      records: [],
      sharing: 'private',
      recordRule: 'anyone',
    },
  ],
  screens: [],
  actions: [],
  aiActions: [],
} as unknown as ReadDefinition;

const IDS = ['a', 'b', 'c', 'd', 'e', 'f'];
const COLLECTIONS = ['tasks', 'projects', 'notes'] as const;

type Step =
  | { kind: 'set'; at: number; value: number; link: string }
  | { kind: 'add'; collection: (typeof COLLECTIONS)[number]; id: string; value: number }
  | { kind: 'remove'; at: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('set' as const),
    at: fc.nat(20),
    value: fc.integer({ min: 0, max: 50 }),
    link: fc.constantFrom('p0', ...IDS),
  }),
  fc.record({
    kind: fc.constant('add' as const),
    collection: fc.constantFrom(...COLLECTIONS),
    id: fc.constantFrom(...IDS),
    value: fc.integer({ min: 0, max: 50 }),
  }),
  fc.record({ kind: fc.constant('remove' as const), at: fc.nat(20) }),
);

function valuesFor(collectionId: string, value: number, link: string): RuntimeDataRecord['values'] {
  if (collectionId === 'tasks') return { title: `T${value}`, hours: value, project: [link] };
  if (collectionId === 'projects') return { name: `P${value}`, b: value * 3 };
  return { text: `n${value}`, seeAlso: [link] };
}

/** The store's next list: only the record a step touches is a new object. */
function apply(records: RuntimeDataRecord[], s: Step, n: number): RuntimeDataRecord[] {
  if (s.kind === 'add') {
    const record = {
      id: `${s.id}${n}`,
      collectionId: s.collection,
      values: valuesFor(s.collection, s.value, 'p0'),
      createdAt: n,
      updatedAt: n,
    };
    return [...records, record];
  }
  if (records.length === 0) return records;
  const at = s.at % records.length;
  if (s.kind === 'remove') return records.filter((_, i) => i !== at);
  const old = records[at]!;
  // Links name records that may not exist, or not in the linked collection.
  const link = s.link === 'p0' ? 'p0' : `${s.link}${s.value % 4}`;
  return records.with(at, { ...old, values: valuesFor(old.collectionId, s.value, link) });
}

function shown(index: ReturnType<typeof indexRecords>) {
  return COLLECTIONS.map((id) => index.of(id));
}

describe('an index kept between changes', () => {
  it('shows what an index built afresh shows, after any sequence of changes', () => {
    const compute = formulaComputer(engine, definition, {
      today: '2026-11-30',
      now: 0,
      timeZone: 'UTC',
    });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        const memo = new RecordIndexMemo();
        let records: RuntimeDataRecord[] = [];
        steps.forEach((s, n) => {
          records = apply(records, s, n);
          const kept = indexRecords(definition, records, compute, relations, null, memo);
          const afresh = indexRecords(definition, records, compute, relations, null);
          expect(shown(kept)).toEqual(shown(afresh));
        });
      }),
      { numRuns: 300 },
    );
  });

  it('works out again only the record that changed, and what reads its collection', () => {
    const compute = formulaComputer(engine, definition, {
      today: '2026-11-30',
      now: 0,
      timeZone: 'UTC',
    });
    let calls = 0;
    const counted: typeof compute = (collectionId, values) => {
      calls += 1;
      return compute!(collectionId, values);
    };
    const memo = new RecordIndexMemo();
    const tasks: RuntimeDataRecord[] = Array.from({ length: 100 }, (_, i) => ({
      id: `t${i}`,
      collectionId: 'tasks',
      values: valuesFor('tasks', i, 'p0'),
      createdAt: i,
      updatedAt: i,
    }));
    const readAll = (index: ReturnType<typeof indexRecords>) =>
      COLLECTIONS.flatMap((id) => index.of(id).map((r) => r.values));
    const first = indexRecords(definition, tasks, counted, relations, null, memo);
    // Worked out as they are read: a list showing ten works out ten.
    first
      .of('tasks')
      .slice(0, 10)
      .forEach((r) => r.values.status);
    expect(calls).toBe(10);
    readAll(first);
    expect(calls).toBe(101); // 100 tasks, the creator's project (notes: none)
    readAll(first);
    expect(calls).toBe(101); // once each
    calls = 0;
    const changed = tasks.with(7, { ...tasks[7]!, values: valuesFor('tasks', 40, 'p0') });
    const index = indexRecords(definition, changed, counted, relations, null, memo);
    readAll(index);
    // The task, and the project that rolls tasks up.
    expect(calls).toBe(2);
    expect(index.byId('t7')?.values.cost).toBe(400);
    expect(index.byId('p0')?.values.hoursIn).toBe(4950 - 7 + 40);
    // Another set of people: worked out afresh.
    calls = 0;
    readAll(indexRecords(definition, changed, counted, relations, { me: 'x' }, memo));
    expect(calls).toBe(101);
  });
});

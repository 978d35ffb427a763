import { APP_TEMPLATES, type ReadDefinition } from '@pipit/app-definition';
import { describe, expect, it } from 'vitest';
import { actionBlocked, blockedButtons, type RuntimeData, type RuntimeRecord } from '../src/index';

const READER = 'You can only view this space.';
const template = APP_TEMPLATES.find((t) => t.id === 'household-shopping-list')!;
const definition: ReadDefinition = template.build();
const items = definition.collections.find((c) => c.name === 'Items')!;
const chores = definition.collections.find((c) => c.name === 'Chores')!;
const screen = (title: string) => definition.screens.find((s) => s.title === title)!;
const actionNamed = (name: string) => definition.actions.find((a) => a.name === name)!.id;

/** The data of a person who may add to `open` collections only. */
function dataFor(open: readonly string[]): RuntimeData {
  return {
    records: [],
    counters: {},
    create: () => 'id',
    update: () => {},
    remove: () => {},
    setCounter: () => {},
    createBlocked: (collectionId) => (open.includes(collectionId) ? null : READER),
  };
}

const choreOf = (isOwn: boolean): RuntimeRecord => ({
  id: 'r1',
  collectionId: chores.id,
  values: {},
  isOwn,
  ...(isOwn
    ? {}
    : { locked: 'author' as const, lockedWhy: 'Only Ben, who added this item, can change it.' }),
});

/** What could only be refused is known before the person taps. */
describe('what a person may do, before they try', () => {
  it('does not offer a button that leads to a form the person may not save', () => {
    const reader = dataFor([]);
    expect(actionBlocked(definition, reader, null, actionNamed('Open the add-item form'))).toBe(
      READER,
    );
    expect(
      actionBlocked(definition, dataFor([items.id]), null, actionNamed('Open the add-item form')),
    ).toBeNull();
    // Going to a list is never blocked.
    expect(
      actionBlocked(definition, reader, null, actionNamed('Show what is still to buy')),
    ).toBeNull();
    expect(blockedButtons(definition, reader, null, screen('Shopping').components)).toEqual([
      READER,
    ]);
    expect(
      blockedButtons(
        definition,
        dataFor([items.id, chores.id]),
        null,
        screen('Shopping').components,
      ),
    ).toEqual([]);
  });

  it('does not offer changing or removing another member’s author-only record, and says whose it is once', () => {
    const member = dataFor([items.id, chores.id]);
    for (const name of ['Mark the chore as done', 'Remove chore']) {
      expect(actionBlocked(definition, member, choreOf(false), actionNamed(name))).toBe(
        'Only Ben, who added this item, can change it.',
      );
      expect(actionBlocked(definition, member, choreOf(true), actionNamed(name))).toBeNull();
    }
    const detail = definition.screens.find((s) =>
      s.components.some(
        (c) => c.type === 'button' && c.props.actionId === actionNamed('Mark the chore as done'),
      ),
    )!;
    expect(blockedButtons(definition, member, choreOf(false), detail.components)).toEqual([
      'Only Ben, who added this item, can change it.',
    ]);
    expect(blockedButtons(definition, member, choreOf(true), detail.components)).toEqual([]);
  });

  it('blocks nothing where the host says nothing (the person’s own data, the preview)', () => {
    const own: RuntimeData = { ...dataFor([]), createBlocked: undefined };
    for (const action of definition.actions)
      expect(actionBlocked(definition, own, null, action.id)).toBeNull();
  });
});

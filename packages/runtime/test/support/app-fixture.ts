import type { Action, AiAction, ReadComponent, ReadDefinition, Step } from '@pipit/app-definition';
import { vi } from 'vitest';
import type { ActionEnv } from '../../src/index';
import { createMemoryDataStore, type MemoryDataStore, type RuntimeRecord } from '../../src/index';
import { component, definitionWith, tasks } from './fixture';

export function step(id: string, type: Step['type'], props: Record<string, unknown> = {}): Step {
  return { id, type, props } as Step;
}

export function action(id: string, ...steps: Step[]): Action {
  return { id, name: id, steps };
}

export const summarise: AiAction = {
  id: 'ai-summary',
  name: 'Summarise',
  prompt: 'Summarise {{record.Title}} for {{user.name}}',
  output: { kind: 'text' },
  target: { kind: 'component' },
};

/**
 * A small task app: a Tasks tab (list → detail → edit; add form), a Today tab (checklist, counter,
 * timer, stat, chart, AI) and screens only reached by navigation.
 */
export function taskApp(extra: { components?: ReadComponent[]; aiActions?: AiAction[] } = {}) {
  const base = definitionWith([]);
  const definition: ReadDefinition = {
    ...base,
    screens: [
      {
        id: 'tasks',
        title: 'Tasks',
        icon: '📋',
        components: [
          component('heading', 'heading', { text: 'Hello {{user.name}}', level: 1 }),
          component('list', 'list', {
            collectionId: 'tasks',
            titleFieldId: 'title',
            subtitleFieldId: 'area',
            detailScreenId: 'detail',
          }),
          component('add-button', 'button', { label: 'Add a task', actionId: 'go-add' }),
          ...(extra.components ?? []),
        ],
      },
      {
        id: 'detail',
        title: '{{record.Title}}',
        icon: '🔍',
        components: [
          component('detail', 'detail', { fieldIds: ['title', 'minutes', 'done', 'site'] }),
          component('done-button', 'button', { label: 'Mark done', actionId: 'mark-done' }),
          component('edit-button', 'button', { label: 'Edit', actionId: 'go-edit' }),
          component('delete-button', 'button', { label: 'Delete', actionId: 'delete' }),
        ],
      },
      {
        id: 'add',
        title: 'New task',
        icon: '➕',
        components: [
          component('add-form', 'form', {
            collectionId: 'tasks',
            fieldIds: ['title', 'minutes', 'done', 'area', 'due', 'site', 'mail'],
            submitLabel: 'Add task',
            actionId: 'after-add',
          }),
        ],
      },
      {
        id: 'edit',
        title: 'Edit task',
        icon: '✏️',
        components: [
          component('edit-form', 'form', {
            collectionId: 'tasks',
            mode: 'edit',
            fieldIds: ['title', 'minutes'],
            actionId: 'after-edit',
          }),
        ],
      },
      {
        id: 'today',
        title: 'Today',
        icon: '☀️',
        components: [
          component('checklist', 'checklist', {
            collectionId: 'tasks',
            titleFieldId: 'title',
            checkFieldId: 'done',
          }),
          component('counter', 'counter', { label: 'Glasses', step: 1 }),
          component('timer', 'timer', { label: 'Focus', seconds: 3 }),
          component('stat', 'stat', {
            label: 'Tasks',
            collectionId: 'tasks',
            aggregate: 'count',
          }),
          component('ai', 'ai', { label: 'Summarise', aiActionId: 'ai-summary' }),
        ],
      },
    ],
    actions: [
      action('go-add', step('s1', 'navigate', { screenId: 'add' })),
      action('go-edit', step('s2', 'navigate', { screenId: 'edit' })),
      action(
        'mark-done',
        step('s3', 'setField', { fieldId: 'done', value: 'true' }),
        step('s4', 'toast', { message: 'Done: {{record.Title}}' }),
      ),
      action(
        'delete',
        step('s5', 'deleteRecord'),
        step('s6', 'toast', { message: 'Deleted' }),
        step('s7', 'back'),
      ),
      action(
        'after-add',
        step('s8', 'toast', { message: 'Added {{input.title}}' }),
        step('s9', 'back'),
      ),
      action(
        'after-edit',
        step('s10', 'toast', { message: 'Saved {{input.Title}}' }),
        step('s11', 'back'),
      ),
    ],
    aiActions: extra.aiActions ?? [summarise],
  };
  return definition;
}

export const creatorRecord: RuntimeRecord = {
  id: 'r1',
  collectionId: 'tasks',
  values: tasks.records[0]?.values ?? {},
  isOwn: false,
};

/** An ActionEnv over a memory store whose effects (navigation, toasts, links) are recorded. */
export function testEnv(
  definition: ReadDefinition,
  options: Partial<ActionEnv> & { store?: MemoryDataStore } = {},
) {
  const { store: given, ...overrides } = options;
  const store = given ?? createMemoryDataStore({}, { now: () => 1_000 });
  const env: ActionEnv = {
    definition,
    get data() {
      return store.getSnapshot();
    },
    record: null,
    input: null,
    user: { name: 'Ana' },
    navigate: vi.fn(),
    back: vi.fn(),
    toast: vi.fn(),
    openUrl: vi.fn(),
    ...overrides,
  };
  return { env, store };
}

import {
  appMetaSchema,
  type Collection,
  type Component,
  COMPONENT_PROPS,
  type ComponentType,
  fieldSchema,
  type ReadComponent,
  type ReadDefinition,
  SCHEMA_VERSION,
  themeSchema,
} from '@pipit/app-definition';

/** A component of `type` whose props go through the schema, so defaults apply as in the reader. */
export function component(id: string, type: ComponentType, props: object = {}): Component {
  return { id, type, props: COMPONENT_PROPS[type].parse(props) } as Component;
}

export const tasks: Collection = {
  id: 'tasks',
  name: 'Tasks',
  fields: [
    fieldSchema.parse({ id: 'title', name: 'Title', type: 'text', required: true }),
    fieldSchema.parse({ id: 'minutes', name: 'Minutes', type: 'number' }),
    fieldSchema.parse({ id: 'done', name: 'Done', type: 'boolean' }),
    fieldSchema.parse({ id: 'area', name: 'Area', type: 'select', options: ['Home', 'Work'] }),
    fieldSchema.parse({ id: 'due', name: 'Due', type: 'date' }),
    fieldSchema.parse({ id: 'notes', name: 'Notes', type: 'longText' }),
    fieldSchema.parse({ id: 'site', name: 'Site', type: 'url' }),
    fieldSchema.parse({ id: 'mail', name: 'Mail', type: 'email' }),
  ],
  records: [
    { id: 'r1', values: { title: 'Water plants', minutes: 10, done: true, area: 'Home' } },
    { id: 'r2', values: { title: 'Write report', minutes: 90, done: false, area: 'Work' } },
    { id: 'r3', values: { title: 'Call Ana', minutes: 5, done: false, area: 'Home' } },
    { id: 'r4', values: { title: 'Plan trip', minutes: null, done: true, area: 'Home' } },
  ],
  sharing: 'private',
  recordRule: 'anyone',
};

export function definitionWith(components: ReadComponent[]): ReadDefinition {
  return {
    schemaVersion: SCHEMA_VERSION,
    meta: appMetaSchema.parse({ title: 'Fixture' }),
    theme: themeSchema.parse({}),
    screens: [
      { id: 'home', title: 'Home', icon: '🏠', components },
      { id: 'other', title: 'Other', icon: '📄', components: [] },
    ],
    collections: [tasks],
    actions: [
      {
        id: 'go-other',
        name: 'Go',
        steps: [{ id: 's1', type: 'navigate', props: { screenId: 'other' } }],
      },
    ],
    aiActions: [],
    reminders: [],
  };
}

/** One of every component type, pointed at the tasks collection where it takes one. */
export const EVERY_TYPE: Record<ComponentType, Component> = {
  heading: component('c-heading', 'heading', { text: 'My tasks', level: 1 }),
  text: component('c-text', 'text', { markdown: 'Hello **there**' }),
  image: component('c-image', 'image', { src: 'https://example.com/a.png', alt: 'A plant' }),
  button: component('c-button', 'button', { label: 'Next', actionId: 'go-other' }),
  list: component('c-list', 'list', {
    collectionId: 'tasks',
    titleFieldId: 'title',
    subtitleFieldId: 'area',
  }),
  detail: component('c-detail', 'detail', { fieldIds: ['title', 'minutes', 'done'] }),
  form: component('c-form', 'form', { collectionId: 'tasks', submitLabel: 'Add task' }),
  checklist: component('c-checklist', 'checklist', {
    collectionId: 'tasks',
    titleFieldId: 'title',
    checkFieldId: 'done',
  }),
  counter: component('c-counter', 'counter', { label: 'Glasses', step: 2 }),
  stat: component('c-stat', 'stat', {
    label: 'Time',
    collectionId: 'tasks',
    aggregate: 'sum',
    fieldId: 'minutes',
  }),
  chart: component('c-chart', 'chart', {
    kind: 'pie',
    collectionId: 'tasks',
    labelFieldId: 'area',
    aggregate: 'count',
  }),
  timer: component('c-timer', 'timer', { seconds: 3725 }),
  divider: component('c-divider', 'divider'),
  link: component('c-link', 'link', { label: 'Docs', url: 'https://example.com/docs' }),
  ai: component('c-ai', 'ai', { label: 'Summarise' }),
};

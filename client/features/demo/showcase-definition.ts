import {
  type Action,
  type AppDefinition,
  appDefinitionSchema,
  type Collection,
  COMPONENT_PROPS,
  type Component,
  type ComponentType,
  type Field,
  type FieldType,
  SCHEMA_VERSION,
  type Step,
  STEP_PROPS,
  type StepType,
} from '@pipit/app-definition';
import type { z } from 'zod';

/**
 * The `/demo1` showcase: Pipit's habit-tracker template as a fixed app. Its ids are written out
 * (not random, as a new app's are) because a visitor's ticks and check-ins live in a document on
 * their device that refers to them: the same ids on every load keep that data matched to the app.
 * Never change an id here; add new ones instead.
 */

/** Where the showcase's data lives on the device (never synced, never merged into an account). */
export const SHOWCASE_DATA_DOCUMENT = 'data/demo1';

function component<T extends ComponentType>(
  id: string,
  type: T,
  props: z.input<(typeof COMPONENT_PROPS)[T]>,
): Component {
  return { id, type, props: COMPONENT_PROPS[type].parse(props) } as Component;
}

function step<T extends StepType>(id: string, type: T, props: z.input<(typeof STEP_PROPS)[T]>) {
  return { id, type, props: STEP_PROPS[type].parse(props) } as Step;
}

function field(
  id: string,
  name: string,
  type: FieldType,
  more: Partial<Pick<Field, 'required' | 'default' | 'options'>> = {},
): Field {
  return { id, name, type, required: false, default: null, options: [], ...more };
}

const HABITS = 'habits';
const CHECK_INS = 'check-ins';
const IDEAS = 'ideas';
const F = {
  name: 'habit-name',
  why: 'habit-why',
  timeOfDay: 'habit-time-of-day',
  doneToday: 'habit-done-today',
  streak: 'habit-streak',
  checkInHabit: 'check-in-habit',
  checkInDate: 'check-in-date',
  feeling: 'check-in-feeling',
  note: 'check-in-note',
  idea: 'idea-title',
  ideaWhy: 'idea-why',
} as const;
const S = {
  today: 'today',
  habits: 'habits',
  habit: 'habit',
  addHabit: 'add-habit',
  editHabit: 'edit-habit',
  checkIn: 'check-in',
  progress: 'progress',
  ideas: 'ideas',
  idea: 'idea',
} as const;

const collections: Collection[] = [
  {
    id: HABITS,
    name: 'Habits',
    fields: [
      field(F.name, 'Habit', 'text', { required: true }),
      field(F.why, 'Why it matters', 'longText'),
      field(F.timeOfDay, 'Time of day', 'select', {
        required: true,
        default: 'Any time',
        options: ['Morning', 'Afternoon', 'Evening', 'Any time'],
      }),
      field(F.doneToday, 'Done today', 'boolean', { default: false }),
      field(F.streak, 'Current streak (days)', 'number', { default: 0 }),
    ],
    records: [],
  },
  {
    id: CHECK_INS,
    name: 'Check-ins',
    fields: [
      field(F.checkInHabit, 'Habit', 'text', { required: true }),
      field(F.checkInDate, 'Date', 'date', { required: true }),
      field(F.feeling, 'How it went', 'select', {
        required: true,
        default: 'Steady',
        options: ['Easy', 'Steady', 'Hard'],
      }),
      field(F.note, 'Note', 'longText'),
    ],
    records: [],
  },
  {
    id: IDEAS,
    name: 'Habit ideas',
    fields: [
      field(F.idea, 'Idea', 'text', { required: true }),
      field(F.ideaWhy, 'Why try it', 'longText'),
    ],
    records: [
      [
        'water',
        'Drink a glass of water on waking',
        'You wake up a little dehydrated, and it is easy to tie to getting out of bed.',
      ],
      [
        'walk',
        'Ten-minute walk after lunch',
        'Gentle movement eases the afternoon slump and adds up to over an hour a week.',
      ],
      [
        'read',
        'Read ten pages before bed',
        'A screen-free wind-down; ten pages a night is roughly a book a month.',
      ],
      [
        'gratitude',
        'Write down one thing that went well',
        'A short, specific note each evening trains your attention on what is working.',
      ],
      [
        'stretch',
        'Stretch for five minutes',
        'Loosens the back and shoulders after sitting, and needs no equipment.',
      ],
    ].map(([id = '', idea = '', why = '']) => ({
      id: `idea-${id}`,
      values: { [F.idea]: idea, [F.ideaWhy]: why },
    })),
  },
];

const actions: Action[] = [
  {
    id: 'go-check-in',
    name: 'Open the check-in form',
    steps: [step('go-check-in-1', 'navigate', { screenId: S.checkIn })],
  },
  {
    id: 'go-add-habit',
    name: 'Open the new-habit form',
    steps: [step('go-add-habit-1', 'navigate', { screenId: S.addHabit })],
  },
  {
    id: 'go-edit-habit',
    name: 'Edit this habit',
    steps: [step('go-edit-habit-1', 'navigate', { screenId: S.editHabit })],
  },
  {
    id: 'go-ideas',
    name: 'Browse habit ideas',
    steps: [step('go-ideas-1', 'navigate', { screenId: S.ideas })],
  },
  {
    id: 'mark-done',
    name: 'Mark done today',
    steps: [
      step('mark-done-1', 'setField', { fieldId: F.doneToday, value: 'true' }),
      step('mark-done-2', 'toast', { message: 'Done for today. Nice work!' }),
    ],
  },
  {
    id: 'delete-habit',
    name: 'Delete habit',
    steps: [
      step('delete-habit-1', 'deleteRecord', {}),
      step('delete-habit-2', 'toast', { message: 'Habit deleted' }),
      step('delete-habit-3', 'back', {}),
    ],
  },
  {
    id: 'after-add-habit',
    name: 'After adding a habit',
    steps: [
      step('after-add-habit-1', 'toast', { message: 'Habit added. Tick it off on Today.' }),
      step('after-add-habit-2', 'back', {}),
    ],
  },
  {
    id: 'after-edit-habit',
    name: 'After editing a habit',
    steps: [
      step('after-edit-habit-1', 'toast', { message: 'Changes saved' }),
      step('after-edit-habit-2', 'back', {}),
    ],
  },
  {
    id: 'after-check-in',
    name: 'After logging a check-in',
    steps: [
      step('after-check-in-1', 'toast', { message: 'Check-in logged' }),
      step('after-check-in-2', 'back', {}),
    ],
  },
  {
    id: 'adopt-idea',
    name: 'Add idea to my habits',
    steps: [
      step('adopt-idea-1', 'createRecord', {
        collectionId: HABITS,
        values: { [F.name]: `{{record.${F.idea}}}`, [F.why]: `{{record.${F.ideaWhy}}}` },
      }),
      step('adopt-idea-2', 'toast', { message: 'Added to your habits' }),
      step('adopt-idea-3', 'back', {}),
    ],
  },
];

// Headings are level 2 and 3: the page around the app (/demo1) has the one h1.
const screens = [
  {
    id: S.today,
    title: 'Today',
    icon: '🌱',
    components: [
      component('today-intro', 'text', {
        markdown:
          'Tick each habit as you do it. **Log a check-in** to remember how it went — your progress charts are drawn from them.',
      }),
      component('today-checklist', 'checklist', {
        collectionId: HABITS,
        titleFieldId: F.name,
        checkFieldId: F.doneToday,
      }),
      component('today-check-in', 'button', { label: 'Log a check-in', actionId: 'go-check-in' }),
      component('today-add', 'button', {
        label: 'Add a habit',
        actionId: 'go-add-habit',
        style: 'secondary',
      }),
      component('today-divider', 'divider', {}),
      component('today-streak', 'stat', {
        label: 'Longest current streak (days)',
        collectionId: HABITS,
        aggregate: 'max',
        fieldId: F.streak,
      }),
      component('today-check-ins', 'stat', { label: 'Check-ins logged', collectionId: CHECK_INS }),
    ],
  },
  {
    id: S.habits,
    title: 'Habits',
    icon: '📋',
    components: [
      component('habits-list', 'list', {
        collectionId: HABITS,
        titleFieldId: F.name,
        subtitleFieldId: F.timeOfDay,
        sort: { fieldId: F.name, direction: 'asc' },
        emptyText: 'No habits yet. Add one, or borrow an idea to get going.',
        detailScreenId: S.habit,
      }),
      component('habits-add', 'button', { label: 'Add a habit', actionId: 'go-add-habit' }),
      component('habits-ideas', 'button', {
        label: 'Need ideas?',
        actionId: 'go-ideas',
        style: 'secondary',
      }),
    ],
  },
  {
    id: S.habit,
    title: 'Habit',
    icon: '🔍',
    components: [
      component('habit-detail', 'detail', {
        fieldIds: [F.name, F.why, F.timeOfDay, F.streak, F.doneToday],
      }),
      component('habit-done', 'button', { label: 'Mark done today', actionId: 'mark-done' }),
      component('habit-check-in', 'button', {
        label: 'Log a check-in',
        actionId: 'go-check-in',
        style: 'secondary',
      }),
      component('habit-edit', 'button', {
        label: 'Edit',
        actionId: 'go-edit-habit',
        style: 'secondary',
      }),
      component('habit-divider', 'divider', {}),
      component('habit-delete', 'button', {
        label: 'Delete habit',
        actionId: 'delete-habit',
        style: 'secondary',
      }),
    ],
  },
  {
    id: S.addHabit,
    title: 'New habit',
    icon: '➕',
    components: [
      component('add-habit-hint', 'text', {
        markdown: 'Small and specific works best: “walk for ten minutes”, not “get fit”.',
      }),
      component('add-habit-form', 'form', {
        collectionId: HABITS,
        mode: 'create',
        fieldIds: [F.name, F.why, F.timeOfDay],
        submitLabel: 'Add habit',
        actionId: 'after-add-habit',
      }),
    ],
  },
  {
    id: S.editHabit,
    title: 'Edit habit',
    icon: '✏️',
    components: [
      component('edit-habit-hint', 'text', {
        markdown:
          'Keep your streak honest: add a day each time you keep it up, reset it to 0 if you miss one.',
      }),
      component('edit-habit-form', 'form', {
        collectionId: HABITS,
        mode: 'edit',
        fieldIds: [F.name, F.why, F.timeOfDay, F.streak, F.doneToday],
        submitLabel: 'Save changes',
        actionId: 'after-edit-habit',
      }),
    ],
  },
  {
    id: S.checkIn,
    title: 'Check in',
    icon: '📝',
    components: [
      component('check-in-form', 'form', {
        collectionId: CHECK_INS,
        mode: 'create',
        fieldIds: [F.checkInHabit, F.checkInDate, F.feeling, F.note],
        submitLabel: 'Log it',
        actionId: 'after-check-in',
      }),
    ],
  },
  {
    id: S.progress,
    title: 'Progress',
    icon: '📈',
    components: [
      component('progress-habits', 'stat', { label: 'Habits', collectionId: HABITS }),
      component('progress-average', 'stat', {
        label: 'Average streak (days)',
        collectionId: HABITS,
        aggregate: 'average',
        fieldId: F.streak,
      }),
      component('progress-by-day-title', 'heading', { text: 'Check-ins by day', level: 2 }),
      component('progress-by-day', 'chart', {
        kind: 'line',
        collectionId: CHECK_INS,
        labelFieldId: F.checkInDate,
        aggregate: 'count',
      }),
      component('progress-by-habit-title', 'heading', { text: 'Check-ins by habit', level: 2 }),
      component('progress-by-habit', 'chart', {
        kind: 'bar',
        collectionId: CHECK_INS,
        labelFieldId: F.checkInHabit,
        aggregate: 'count',
      }),
      component('progress-feelings-title', 'heading', { text: 'How it went', level: 2 }),
      component('progress-feelings', 'chart', {
        kind: 'pie',
        collectionId: CHECK_INS,
        labelFieldId: F.feeling,
        aggregate: 'count',
      }),
      component('progress-recent-title', 'heading', { text: 'Recent check-ins', level: 2 }),
      component('progress-recent', 'list', {
        collectionId: CHECK_INS,
        titleFieldId: F.checkInHabit,
        subtitleFieldId: F.checkInDate,
        sort: { fieldId: F.checkInDate, direction: 'desc' },
        emptyText: 'Your check-ins will show up here.',
      }),
    ],
  },
  {
    id: S.ideas,
    title: 'Ideas',
    icon: '💡',
    components: [
      component('ideas-intro', 'text', {
        markdown:
          'Tiny habits that are easy to start. Tap one to read more and add it to your list.',
      }),
      component('ideas-list', 'list', {
        collectionId: IDEAS,
        titleFieldId: F.idea,
        emptyText: 'No ideas here yet.',
        detailScreenId: S.idea,
      }),
    ],
  },
  {
    id: S.idea,
    title: 'Idea',
    icon: '💡',
    components: [
      component('idea-detail', 'detail', { fieldIds: [F.idea, F.ideaWhy] }),
      component('idea-adopt', 'button', { label: 'Add to my habits', actionId: 'adopt-idea' }),
    ],
  },
];

let built: AppDefinition | undefined;

/** The showcase app, checked against the schema once (a mistake here fails loudly in tests). */
export function showcaseDefinition(): AppDefinition {
  built ??= appDefinitionSchema.parse({
    schemaVersion: SCHEMA_VERSION,
    meta: {
      title: 'Habit tracker',
      description:
        'Build habits that stick: a daily checklist, check-ins that record how each one went, streaks, and charts of your progress.',
      icon: { kind: 'emoji', emoji: '🌱', background: '#1a7f5a' },
      tags: ['habits', 'health', 'productivity'],
    },
    theme: { preset: 'meadow', font: 'rounded', mode: 'auto' },
    screens,
    collections,
    actions,
    aiActions: [],
  });
  return built;
}

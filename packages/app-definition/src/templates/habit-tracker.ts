import { createId } from '@pipit/protocol';
import type { AppDefinition, Component, Step } from '../schema/definition';
import type { AppTemplate } from './app-template';
import {
  back,
  button,
  collection,
  component,
  definition,
  divider,
  field,
  fromRecord,
  heading,
  namedAction,
  namedComponent,
  navigate,
  recordScreens,
  screen,
  step,
  text,
  toast,
  withFields,
} from './builders';

const icon = { kind: 'emoji', emoji: '🌱', background: '#1a7f5a' } as const;

interface HabitTrackerOptions {
  /**
   * The id of each entity, from a name unique in the app ('today', 'habit-name', 'mark-done-1'…):
   * a fresh random id for a new app, the name itself for the showcase.
   */
  id: (name: string) => string;
  /**
   * The `/demo1` showcase's variant: no level-1 headings (the page around the app has the one
   * h1), titled charts, a few more shortcuts and a fifth idea.
   */
  showcase: boolean;
}

/**
 * A habit's check-in status from the days since its last check-in: today's done, today's due (the
 * last was yesterday), or how many days were missed since.
 */
const STATUS_FORMULA = [
  'IF(IS_EMPTY({Last check-in}), "No check-ins yet",',
  ' IF({Days since last check-in} <= 0, "Checked in today",',
  ' IF({Days since last check-in} = 1, "Due today",',
  ' "Missed " & ({Days since last check-in} - 1) & IF({Days since last check-in} = 2, " day", " days"))))',
].join('');

const IDEAS: Array<{ name: string; idea: string; why: string; showcaseOnly?: true }> = [
  {
    name: 'water',
    idea: 'Drink a glass of water on waking',
    why: 'You wake up a little dehydrated, and it is easy to tie to getting out of bed.',
  },
  {
    name: 'walk',
    idea: 'Ten-minute walk after lunch',
    why: 'Gentle movement eases the afternoon slump and adds up to over an hour a week.',
  },
  {
    name: 'read',
    idea: 'Read ten pages before bed',
    why: 'A screen-free wind-down; ten pages a night is roughly a book a month.',
  },
  {
    name: 'gratitude',
    idea: 'Write down one thing that went well',
    why: 'A short, specific note each evening trains your attention on what is working.',
  },
  {
    name: 'stretch',
    idea: 'Stretch for five minutes',
    why: 'Loosens the back and shoulders after sitting, and needs no equipment.',
    showcaseOnly: true,
  },
];

function habitTrackerDefinition({ id, showcase }: HabitTrackerOptions): AppDefinition {
  /** A component with its id by name. */
  const named = (name: string, built: Component) => namedComponent(id, name, built);
  /** An action whose steps are named after it: `<name>-1`, `<name>-2`… */
  const act = (name: string, label: string, ...steps: Step[]) =>
    namedAction(id, name, label, ...steps);
  /** A page heading: the showcase leaves it out (the page around it has the h1). */
  const title = (name: string, words: string): Component[] =>
    showcase ? [] : [named(name, heading(words, 1))];

  const s = {
    today: id('today'),
    habits: id('habits'),
    habit: id('habit'),
    addHabit: id('add-habit'),
    editHabit: id('edit-habit'),
    logCheckIn: id('check-in'),
    progress: id('progress'),
    ideas: id('ideas'),
    idea: id('idea'),
  };

  const plainHabits = collection(
    'Habits',
    {
      name: field('Habit', 'text', { required: true }),
      why: field('Why it matters', 'longText'),
      timeOfDay: field('Time of day', 'select', {
        required: true,
        default: 'Any time',
        options: ['Morning', 'Afternoon', 'Evening', 'Any time'],
      }),
      doneToday: field('Done today', 'boolean', { default: false }),
      streak: field('Current streak (days)', 'number', { default: 0 }),
    },
    [],
    {
      id: id('habits'),
      fields: {
        name: id('habit-name'),
        why: id('habit-why'),
        timeOfDay: id('habit-time-of-day'),
        doneToday: id('habit-done-today'),
        streak: id('habit-streak'),
      },
      records: [],
    },
  );
  const checkIns = collection(
    'Check-ins',
    {
      // The template links each check-in to its habit, so a habit can count its check-ins and
      // find the last one. The showcase keeps the habit's name as text: a visitor's check-ins on
      // their device hold names there, which a link would read as missing records.
      habit: showcase
        ? field('Habit', 'text', { required: true })
        : field('Habit', 'relation', { required: true, target: plainHabits.id, many: false }),
      date: field('Date', 'date', { required: true }),
      feeling: field('How it went', 'select', {
        required: true,
        default: 'Steady',
        options: ['Easy', 'Steady', 'Hard'],
      }),
      note: field('Note', 'longText'),
    },
    [],
    {
      id: id('check-ins'),
      fields: {
        habit: id('check-in-habit'),
        date: id('check-in-date'),
        feeling: id('check-in-feeling'),
        note: id('check-in-note'),
      },
      records: [],
    },
  );
  /*
   * How each habit is going, worked out from its check-ins. Not a streak: the formulas see one
   * habit's values and its check-ins only through rollups (a count, the last date), and no
   * rollup can tell whether the days between check-ins were all kept. What they can say
   * truthfully is how long it has been since the last check-in, and so whether a day was missed.
   */
  const tracked = showcase
    ? null
    : withFields(plainHabits, {
        checkIns: field('Check-ins', 'rollup', {
          through: checkIns.f.habit,
          throughCollection: checkIns.id,
          aggregate: 'count',
        }),
        lastCheckIn: field('Last check-in', 'rollup', {
          through: checkIns.f.habit,
          throughCollection: checkIns.id,
          aggregate: 'max',
          aggregateFieldId: checkIns.f.date,
        }),
        daysSince: field('Days since last check-in', 'formula', {
          formula: 'DAYS_SINCE({Last check-in})',
        }),
        status: field('Check-in status', 'formula', { formula: STATUS_FORMULA }),
      });
  const habits = tracked ?? plainHabits;
  const ideaRecords = IDEAS.filter((idea) => showcase || !idea.showcaseOnly);
  const ideas = collection(
    'Habit ideas',
    { idea: field('Idea', 'text', { required: true }), why: field('Why try it', 'longText') },
    ideaRecords.map(({ idea, why }) => ({ idea, why })),
    {
      id: id('ideas'),
      fields: { idea: id('idea-title'), why: id('idea-why') },
      records: ideaRecords.map(({ name }) => id(`idea-${name}`)),
    },
  );

  const habit = recordScreens(habits, {
    noun: 'habit',
    remove: 'Delete',
    opener: 'Open the new-habit form',
    addTitle: 'New habit',
    submit: 'Add habit',
    added: showcase ? 'Habit added. Tick it off on Today.' : 'Habit added',
    screens: { detail: s.habit, add: s.addHabit, edit: s.editHabit },
    fields: [
      habits.f.name,
      habits.f.why,
      habits.f.timeOfDay,
      ...(tracked ? [tracked.f.status, tracked.f.lastCheckIn, tracked.f.checkIns] : []),
      habits.f.streak,
      habits.f.doneToday,
    ],
    addFields: [habits.f.name, habits.f.why, habits.f.timeOfDay],
    editFields: [
      habits.f.name,
      habits.f.why,
      habits.f.timeOfDay,
      habits.f.streak,
      // The showcase's visitor can untick a habit here too.
      ...(showcase ? [habits.f.doneToday] : []),
    ],
    addHint: 'Small and specific works best: “walk for ten minutes”, not “get fit”.',
    editHint: showcase
      ? 'Keep your streak honest: add a day each time you keep it up, reset it to 0 if you miss one.'
      : 'Keep your streak honest: add a day each time you keep it up, reset to 0 if you miss.',
    id,
    // The showcase's page around the app has the one h1.
    headings: !showcase,
  });
  const goLog = act('go-check-in', 'Open the check-in form', navigate(s.logCheckIn));
  const goIdeas = act('go-ideas', 'Browse habit ideas', navigate(s.ideas));
  const markDone = act(
    'mark-done',
    'Mark done today',
    step('setField', { fieldId: habits.f.doneToday, value: 'true' }),
    toast('Done for today. Nice work!'),
  );
  const afterLog = act(
    'after-check-in',
    'After logging a check-in',
    toast('Check-in logged'),
    back(),
  );
  const adoptIdea = act(
    'adopt-idea',
    'Add idea to my habits',
    step('createRecord', {
      collectionId: habits.id,
      values: {
        [habits.f.name]: fromRecord(ideas.f.idea),
        [habits.f.why]: fromRecord(ideas.f.why),
      },
    }),
    toast('Added to your habits'),
    back(),
  );

  const checkInsStat = named(
    'today-check-ins',
    component('stat', { label: 'Check-ins logged', collectionId: checkIns.id }),
  );
  const streakStat = named(
    'today-streak',
    component('stat', {
      label: 'Longest current streak (days)',
      collectionId: habits.id,
      aggregate: 'max',
      fieldId: habits.f.streak,
    }),
  );
  const byHabit = named(
    'progress-by-habit',
    component('chart', {
      kind: 'bar',
      collectionId: checkIns.id,
      labelFieldId: checkIns.f.habit,
      aggregate: 'count',
    }),
  );
  const byDay = named(
    'progress-by-day',
    component('chart', {
      kind: 'line',
      collectionId: checkIns.id,
      labelFieldId: checkIns.f.date,
      aggregate: 'count',
    }),
  );
  const feelings = named(
    'progress-feelings',
    component('chart', {
      kind: 'pie',
      collectionId: checkIns.id,
      labelFieldId: checkIns.f.feeling,
      aggregate: 'count',
    }),
  );
  /** The showcase titles each chart (the template's charts stand alone). */
  const chartTitle = (name: string, words: string): Component => named(name, heading(words, 2));

  const screens = [
    screen(s.today, 'Today', '🌱', [
      ...title('today-title', 'Today'),
      named(
        'today-intro',
        text(
          showcase
            ? 'Tick each habit as you do it. **Log a check-in** to remember how it went — your progress charts are drawn from them.'
            : 'Tick each habit as you do it, and log a check-in for it: each habit counts its check-ins and says how long it has been since the last one. Untick them tomorrow morning to start a fresh day.',
        ),
      ),
      named(
        'today-checklist',
        component('checklist', {
          collectionId: habits.id,
          titleFieldId: habits.f.name,
          checkFieldId: habits.f.doneToday,
        }),
      ),
      named('today-check-in', button('Log a check-in', goLog)),
      ...(showcase ? [named('today-add', button('Add a habit', habit.goAdd, 'secondary'))] : []),
      named('today-divider', divider()),
      ...(showcase ? [streakStat, checkInsStat] : [checkInsStat, streakStat]),
    ]),
    screen(s.habits, 'Habits', '📋', [
      ...title('habits-title', 'Your habits'),
      named(
        'habits-list',
        habit.list({
          titleFieldId: habits.f.name,
          // The template's habits say how they are going; the showcase's, when to do them.
          subtitleFieldId: tracked ? tracked.f.status : habits.f.timeOfDay,
          sort: { fieldId: habits.f.name, direction: 'asc' },
          emptyText: 'No habits yet. Add one, or borrow an idea to get going.',
        }),
      ),
      named('habits-add', button('Add a habit', habit.goAdd)),
      named('habits-ideas', button('Need ideas?', goIdeas, 'secondary')),
    ]),
    habit.detailScreen('Habit', '🔍', [
      named('habit-done', button('Mark done today', markDone)),
      ...(showcase ? [named('habit-check-in', button('Log a check-in', goLog, 'secondary'))] : []),
      habit.editButton(),
      named('habit-divider', divider()),
      habit.removeButton(),
    ]),
    habit.addScreen,
    habit.editScreen,
    screen(s.logCheckIn, 'Check in', '📝', [
      ...title('check-in-title', 'Log a check-in'),
      named(
        'check-in-form',
        component('form', {
          collectionId: checkIns.id,
          mode: 'create',
          fieldIds: [checkIns.f.habit, checkIns.f.date, checkIns.f.feeling, checkIns.f.note],
          submitLabel: 'Log it',
          actionId: afterLog.id,
        }),
      ),
    ]),
    screen(s.progress, 'Progress', '📈', [
      ...title('progress-title', 'Progress'),
      named('progress-habits', component('stat', { label: 'Habits', collectionId: habits.id })),
      named(
        'progress-average',
        component('stat', {
          label: 'Average streak (days)',
          collectionId: habits.id,
          aggregate: 'average',
          fieldId: habits.f.streak,
        }),
      ),
      ...(showcase
        ? [
            chartTitle('progress-by-day-title', 'Check-ins by day'),
            byDay,
            chartTitle('progress-by-habit-title', 'Check-ins by habit'),
            byHabit,
            chartTitle('progress-feelings-title', 'How it went'),
            feelings,
          ]
        : [byHabit, byDay, feelings]),
      ...(tracked
        ? [
            named('progress-each-title', heading('Each habit')),
            named(
              'progress-each',
              habit.list({
                titleFieldId: tracked.f.name,
                subtitleFieldId: tracked.f.status,
                view: 'table',
                columnFieldIds: [
                  tracked.f.name,
                  tracked.f.status,
                  tracked.f.lastCheckIn,
                  tracked.f.checkIns,
                ],
                sort: { fieldId: tracked.f.lastCheckIn, direction: 'desc' },
                search: false,
                emptyText: 'Add a habit, then log check-ins to see how each one is going.',
              }),
            ),
          ]
        : []),
      named('progress-recent-title', heading(showcase ? 'Recent check-ins' : 'Check-in calendar')),
      named(
        'progress-recent',
        component('list', {
          collectionId: checkIns.id,
          titleFieldId: checkIns.f.habit,
          subtitleFieldId: checkIns.f.date,
          sort: { fieldId: checkIns.f.date, direction: 'desc' },
          emptyText: 'Your check-ins will show up here.',
          // The template's check-ins on a calendar, a day's tap logging one for it. The showcase
          // keeps its list: /demo1's page and its tests show that one.
          ...(showcase
            ? {}
            : {
                view: 'calendar' as const,
                dateFieldId: checkIns.f.date,
                addScreenId: s.logCheckIn,
              }),
        }),
      ),
    ]),
    screen(s.ideas, 'Ideas', '💡', [
      ...title('ideas-title', 'Habit ideas'),
      named(
        'ideas-intro',
        text('Tiny habits that are easy to start. Tap one to read more and add it to your list.'),
      ),
      named(
        'ideas-list',
        component('list', {
          collectionId: ideas.id,
          titleFieldId: ideas.f.idea,
          emptyText: 'No ideas here yet.',
          detailScreenId: s.idea,
        }),
      ),
    ]),
    screen(s.idea, 'Idea', '💡', [
      named('idea-detail', component('detail', { fieldIds: [ideas.f.idea, ideas.f.why] })),
      named('idea-adopt', button('Add to my habits', adoptIdea)),
    ]),
  ];

  return definition({
    title: 'Habit tracker',
    description:
      'Build habits that stick: a daily checklist, check-ins that record how each one went, streaks, and charts of your progress.',
    icon,
    tags: ['habits', 'health', 'productivity'],
    preset: 'meadow',
    theme: { font: 'rounded' },
    screens,
    collections: [habits, checkIns, ideas],
    actions: [
      goLog,
      habit.goAdd,
      habit.goEdit,
      goIdeas,
      markDone,
      habit.remove,
      habit.afterAdd,
      habit.afterEdit,
      afterLog,
      adoptIdea,
    ],
    // The moment a habit is most often forgotten is the end of the day, before it is logged.
    reminders: [
      {
        id: id('log-reminder'),
        title: 'Log your habits',
        body: 'Did you log today’s habits?',
        schedule: { kind: 'weekly', days: [1, 2, 3, 4, 5, 6, 7], time: '20:00' },
      },
    ],
  });
}

export const habitTracker: AppTemplate = {
  id: 'habit-tracker',
  name: 'Habit tracker',
  summary: 'A daily checklist of your habits, check-ins with how they went, and your progress.',
  icon,
  build() {
    return habitTrackerDefinition({ id: () => createId(), showcase: false });
  },
};

/**
 * The habit tracker as the `/demo1` showcase: a fixed app whose ids are written out (each entity's
 * id is its name here) because a visitor's ticks and check-ins live in a document on their device
 * that refers to them: the same ids on every load keep that data matched to the app. Never change
 * an id; add new ones instead.
 */
export function habitTrackerShowcase(): AppDefinition {
  return habitTrackerDefinition({ id: (name) => name, showcase: true });
}

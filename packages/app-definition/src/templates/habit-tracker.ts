import type { AppTemplate } from './app-template';
import {
  action,
  back,
  button,
  collection,
  component,
  definition,
  divider,
  field,
  fromRecord,
  heading,
  ids,
  navigate,
  screen,
  step,
  text,
  toast,
} from './builders';

const icon = { kind: 'emoji', emoji: '🌱', background: '#1a7f5a' } as const;

export const habitTracker: AppTemplate = {
  id: 'habit-tracker',
  name: 'Habit tracker',
  summary: 'A daily checklist of your habits, check-ins with how they went, and your progress.',
  icon,
  build() {
    const s = ids('today', 'habits', 'habit', 'addHabit', 'editHabit', 'logCheckIn', 'progress');
    const ideasScreens = ids('ideas', 'idea');

    const habits = collection('Habits', {
      name: field('Habit', 'text', { required: true }),
      why: field('Why it matters', 'longText'),
      timeOfDay: field('Time of day', 'select', {
        required: true,
        default: 'Any time',
        options: ['Morning', 'Afternoon', 'Evening', 'Any time'],
      }),
      doneToday: field('Done today', 'boolean', { default: false }),
      streak: field('Current streak (days)', 'number', { default: 0 }),
    });
    const checkIns = collection('Check-ins', {
      habit: field('Habit', 'text', { required: true }),
      date: field('Date', 'date', { required: true }),
      feeling: field('How it went', 'select', {
        required: true,
        default: 'Steady',
        options: ['Easy', 'Steady', 'Hard'],
      }),
      note: field('Note', 'longText'),
    });
    const ideas = collection(
      'Habit ideas',
      { idea: field('Idea', 'text', { required: true }), why: field('Why try it', 'longText') },
      [
        {
          idea: 'Drink a glass of water on waking',
          why: 'You wake up a little dehydrated, and it is easy to tie to getting out of bed.',
        },
        {
          idea: 'Ten-minute walk after lunch',
          why: 'Gentle movement eases the afternoon slump and adds up to over an hour a week.',
        },
        {
          idea: 'Read ten pages before bed',
          why: 'A screen-free wind-down; ten pages a night is roughly a book a month.',
        },
        {
          idea: 'Write down one thing that went well',
          why: 'A short, specific note each evening trains your attention on what is working.',
        },
      ],
    );

    const goLog = action('Open the check-in form', navigate(s.logCheckIn));
    const goAdd = action('Open the new-habit form', navigate(s.addHabit));
    const goEdit = action('Edit this habit', navigate(s.editHabit));
    const goIdeas = action('Browse habit ideas', navigate(ideasScreens.ideas));
    const markDone = action(
      'Mark done today',
      step('setField', { fieldId: habits.f.doneToday, value: 'true' }),
      toast('Done for today. Nice work!'),
    );
    const deleteHabit = action(
      'Delete habit',
      step('deleteRecord', {}),
      toast('Habit deleted'),
      back(),
    );
    const afterAdd = action('After adding a habit', toast('Habit added'), back());
    const afterEdit = action('After editing a habit', toast('Changes saved'), back());
    const afterLog = action('After logging a check-in', toast('Check-in logged'), back());
    const adoptIdea = action(
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

    const screens = [
      screen(s.today, 'Today', '🌱', [
        heading('Today', 1),
        text(
          'Tick each habit as you do it. Untick them tomorrow morning to start a fresh day, and log a check-in when you want to remember how it went.',
        ),
        component('checklist', {
          collectionId: habits.id,
          titleFieldId: habits.f.name,
          checkFieldId: habits.f.doneToday,
        }),
        button('Log a check-in', goLog),
        divider(),
        component('stat', { label: 'Check-ins logged', collectionId: checkIns.id }),
        component('stat', {
          label: 'Longest current streak (days)',
          collectionId: habits.id,
          aggregate: 'max',
          fieldId: habits.f.streak,
        }),
      ]),
      screen(s.habits, 'Habits', '📋', [
        heading('Your habits', 1),
        component('list', {
          collectionId: habits.id,
          titleFieldId: habits.f.name,
          subtitleFieldId: habits.f.timeOfDay,
          sort: { fieldId: habits.f.name, direction: 'asc' },
          emptyText: 'No habits yet. Add one, or borrow an idea to get going.',
          detailScreenId: s.habit,
        }),
        button('Add a habit', goAdd),
        button('Need ideas?', goIdeas, 'secondary'),
      ]),
      screen(s.habit, 'Habit', '🔍', [
        component('detail', {
          fieldIds: [
            habits.f.name,
            habits.f.why,
            habits.f.timeOfDay,
            habits.f.streak,
            habits.f.doneToday,
          ],
        }),
        button('Mark done today', markDone),
        button('Edit', goEdit, 'secondary'),
        divider(),
        button('Delete habit', deleteHabit, 'secondary'),
      ]),
      screen(s.addHabit, 'New habit', '➕', [
        heading('New habit', 1),
        text('Small and specific works best: “walk for ten minutes”, not “get fit”.'),
        component('form', {
          collectionId: habits.id,
          mode: 'create',
          fieldIds: [habits.f.name, habits.f.why, habits.f.timeOfDay],
          submitLabel: 'Add habit',
          actionId: afterAdd.id,
        }),
      ]),
      screen(s.editHabit, 'Edit habit', '✏️', [
        heading('Edit habit', 1),
        text(
          'Keep your streak honest: add a day each time you keep it up, reset to 0 if you miss.',
        ),
        component('form', {
          collectionId: habits.id,
          mode: 'edit',
          fieldIds: [habits.f.name, habits.f.why, habits.f.timeOfDay, habits.f.streak],
          submitLabel: 'Save changes',
          actionId: afterEdit.id,
        }),
      ]),
      screen(s.logCheckIn, 'Check in', '📝', [
        heading('Log a check-in', 1),
        component('form', {
          collectionId: checkIns.id,
          mode: 'create',
          fieldIds: [checkIns.f.habit, checkIns.f.date, checkIns.f.feeling, checkIns.f.note],
          submitLabel: 'Log it',
          actionId: afterLog.id,
        }),
      ]),
      screen(s.progress, 'Progress', '📈', [
        heading('Progress', 1),
        component('stat', { label: 'Habits', collectionId: habits.id }),
        component('stat', {
          label: 'Average streak (days)',
          collectionId: habits.id,
          aggregate: 'average',
          fieldId: habits.f.streak,
        }),
        component('chart', {
          kind: 'bar',
          collectionId: checkIns.id,
          labelFieldId: checkIns.f.habit,
          aggregate: 'count',
        }),
        component('chart', {
          kind: 'line',
          collectionId: checkIns.id,
          labelFieldId: checkIns.f.date,
          aggregate: 'count',
        }),
        component('chart', {
          kind: 'pie',
          collectionId: checkIns.id,
          labelFieldId: checkIns.f.feeling,
          aggregate: 'count',
        }),
        heading('Recent check-ins'),
        component('list', {
          collectionId: checkIns.id,
          titleFieldId: checkIns.f.habit,
          subtitleFieldId: checkIns.f.date,
          sort: { fieldId: checkIns.f.date, direction: 'desc' },
          emptyText: 'Your check-ins will show up here.',
        }),
      ]),
      screen(ideasScreens.ideas, 'Ideas', '💡', [
        heading('Habit ideas', 1),
        text('Tiny habits that are easy to start. Tap one to read more and add it to your list.'),
        component('list', {
          collectionId: ideas.id,
          titleFieldId: ideas.f.idea,
          emptyText: 'No ideas here yet.',
          detailScreenId: ideasScreens.idea,
        }),
      ]),
      screen(ideasScreens.idea, 'Idea', '💡', [
        component('detail', { fieldIds: [ideas.f.idea, ideas.f.why] }),
        button('Add to my habits', adoptIdea),
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
        goAdd,
        goEdit,
        goIdeas,
        markDone,
        deleteHabit,
        afterAdd,
        afterEdit,
        afterLog,
        adoptIdea,
      ],
    });
  },
};

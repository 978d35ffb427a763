import type { AppTemplate } from './app-template';
import {
  action,
  button,
  collection,
  component,
  definition,
  divider,
  field,
  heading,
  ids,
  navigate,
  recordScreens,
  screen,
  text,
} from './builders';

const icon = { kind: 'emoji', emoji: '🏋️', background: '#0f5e73' } as const;

export const workoutLog: AppTemplate = {
  id: 'workout-log',
  name: 'Workout log',
  summary: 'Log every session, see your minutes add up, and time your rests between sets.',
  icon,
  build() {
    const s = ids(
      'summary',
      'history',
      'workout',
      'logWorkout',
      'editWorkout',
      'rest',
      'routines',
      'routine',
    );

    const workouts = collection('Workouts', {
      date: field('Date', 'date', { required: true }),
      type: field('Type', 'select', {
        required: true,
        default: 'Run',
        options: ['Run', 'Walk', 'Cycle', 'Swim', 'Strength', 'Yoga', 'Other'],
      }),
      minutes: field('Duration (minutes)', 'number', { required: true, default: 30 }),
      effort: field('Effort', 'select', {
        required: true,
        default: 'Moderate',
        options: ['Easy', 'Moderate', 'Hard'],
      }),
      distance: field('Distance (km)', 'number'),
      notes: field('Notes', 'longText'),
    });
    const routines = collection(
      'Routines',
      {
        name: field('Routine', 'text', { required: true }),
        goodFor: field('Good for', 'select', {
          required: true,
          default: 'Warm-up',
          options: ['Warm-up', 'Cool-down', 'Mobility'],
        }),
        steps: field('Steps', 'longText', { required: true }),
      },
      [
        {
          name: 'Five-minute warm-up',
          goodFor: 'Warm-up',
          steps:
            '1. March on the spot: 1 minute\n2. Arm circles, forwards then back: 30 seconds each\n3. Slow bodyweight squats: 10\n4. Walking lunges: 10 each leg\n5. Jumping jacks: 1 minute',
        },
        {
          name: 'Post-run stretch',
          goodFor: 'Cool-down',
          steps:
            '1. Calf stretch against a wall: 30 seconds each side\n2. Standing quad stretch: 30 seconds each side\n3. Hamstring stretch, heel on a low step: 30 seconds each side\n4. Kneeling hip-flexor stretch: 30 seconds each side\n5. Child’s pose: 1 minute',
        },
        {
          name: 'Desk-day mobility',
          goodFor: 'Mobility',
          steps:
            '1. Cat–cow: 10 slow rounds\n2. Thread the needle on all fours: 8 each side\n3. Hip circles: 10 each direction\n4. Neck side stretch: 20 seconds each side\n5. Deep squat hold: 30 seconds',
        },
      ],
    );
    const f = workouts.f;

    const goRest = action('Open the rest timer', navigate(s.rest));
    const allFields = [f.date, f.type, f.minutes, f.effort, f.distance, f.notes];
    const workout = recordScreens(workouts, {
      noun: 'workout',
      remove: 'Delete',
      opener: 'Open the workout form',
      afterAdding: 'After logging a workout',
      addTitle: 'Log workout',
      addHeading: 'Log a workout',
      submit: 'Log workout',
      added: 'Workout logged. Well done!',
      screens: { detail: s.workout, add: s.logWorkout, edit: s.editWorkout },
      fields: allFields,
      addFields: allFields,
      underAddForm: [button('Rest timer', goRest, 'secondary')],
    });

    const screens = [
      screen(s.summary, 'Summary', '🏋️', [
        heading('Training summary', 1),
        button('Log a workout', workout.goAdd),
        component('stat', { label: 'Workouts logged', collectionId: workouts.id }),
        component('stat', {
          label: 'Minutes trained',
          collectionId: workouts.id,
          aggregate: 'sum',
          fieldId: f.minutes,
        }),
        component('stat', {
          label: 'Average session (minutes)',
          collectionId: workouts.id,
          aggregate: 'average',
          fieldId: f.minutes,
        }),
        component('stat', {
          label: 'Longest distance (km)',
          collectionId: workouts.id,
          aggregate: 'max',
          fieldId: f.distance,
        }),
        divider(),
        heading('Minutes by type'),
        component('chart', {
          kind: 'bar',
          collectionId: workouts.id,
          labelFieldId: f.type,
          valueFieldId: f.minutes,
          aggregate: 'sum',
        }),
        heading('Minutes by day'),
        component('chart', {
          kind: 'line',
          collectionId: workouts.id,
          labelFieldId: f.date,
          valueFieldId: f.minutes,
          aggregate: 'sum',
        }),
        component('link', {
          label: 'How much activity is recommended? (WHO)',
          url: 'https://www.who.int/news-room/fact-sheets/detail/physical-activity',
        }),
      ]),
      screen(s.history, 'History', '📅', [
        heading('History', 1),
        workout.list({
          titleFieldId: f.type,
          subtitleFieldId: f.date,
          sort: { fieldId: f.date, direction: 'desc' },
          emptyText: 'No workouts yet. Log your first session from the summary.',
        }),
        heading('Hard sessions'),
        workout.list({
          titleFieldId: f.type,
          subtitleFieldId: f.date,
          filter: { fieldId: f.effort, op: 'equals', value: 'Hard' },
          sort: { fieldId: f.date, direction: 'desc' },
          emptyText: 'No hard sessions logged. Plan a rest day after each one.',
        }),
      ]),
      workout.detailScreen('Workout', '💪', [workout.editButton(), workout.removeButton()]),
      workout.addScreen,
      workout.editScreen,
      screen(s.rest, 'Timer', '⏱️', [
        heading('Rest timer', 1),
        text(
          'Rest 60–90 seconds between strength sets, and 2–3 minutes after your heaviest lifts.',
        ),
        component('timer', { label: 'Rest between sets', mode: 'countdown', seconds: 90 }),
        component('counter', { label: 'Sets done', step: 1 }),
        divider(),
        component('timer', { label: 'Session stopwatch', mode: 'stopwatch', seconds: 3600 }),
      ]),
      screen(s.routines, 'Routines', '🧘', [
        heading('Routines', 1),
        text('Short routines to start and finish a session well.'),
        component('list', {
          collectionId: routines.id,
          titleFieldId: routines.f.name,
          subtitleFieldId: routines.f.goodFor,
          emptyText: 'No routines yet.',
          detailScreenId: s.routine,
        }),
      ]),
      screen(s.routine, 'Routine', '🧘', [
        component('detail', {
          fieldIds: [routines.f.name, routines.f.goodFor, routines.f.steps],
        }),
        component('timer', { label: 'Routine timer', mode: 'countdown', seconds: 300 }),
      ]),
    ];

    return definition({
      title: 'Workout log',
      description:
        'Log runs, rides, swims and strength sessions with their duration and effort. See your training add up by type and by day, time your rests, and follow short warm-up and stretching routines.',
      icon,
      tags: ['fitness', 'health', 'training'],
      preset: 'midnight',
      theme: { density: 'compact' },
      screens,
      collections: [workouts, routines],
      actions: [
        workout.goAdd,
        workout.goEdit,
        goRest,
        workout.remove,
        workout.afterAdd,
        workout.afterEdit,
      ],
    });
  },
};

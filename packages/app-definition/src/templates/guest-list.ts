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
  recordScreens,
  screen,
  step,
  text,
  toast,
  withFields,
} from './builders';

const icon = { kind: 'emoji', emoji: '💌', background: '#8a3b8f' } as const;

const YES = 'Yes';
const NO = 'No';
const MAYBE = 'Maybe';
const NOT_REPLIED = 'Not replied';

export const guestList: AppTemplate = {
  id: 'guest-list',
  name: 'Guest list',
  summary:
    'Invitations, RSVPs, events with their head counts, and dietary needs for your party or wedding.',
  icon,
  build() {
    const s = ids(
      'overview',
      'guests',
      'events',
      'invitations',
      'guest',
      'addGuest',
      'editGuest',
      'event',
      'addEvent',
      'editEvent',
    );

    const plainEvents = collection('Events', {
      name: field('Event', 'text', { required: true }),
      when: field('When', 'dateTime'),
      place: field('Where', 'text'),
    });
    const guests = collection('Guests', {
      name: field('Name', 'text', { required: true }),
      rsvp: field('RSVP', 'select', {
        required: true,
        default: NOT_REPLIED,
        options: [NOT_REPLIED, YES, MAYBE, NO],
      }),
      partySize: field('Party size', 'number', { required: true, default: 1 }),
      group: field('Group', 'select', { options: ['Family', 'Friends', 'Work', 'Neighbours'] }),
      email: field('Email', 'email'),
      phone: field('Phone', 'text'),
      dietary: field('Dietary notes', 'longText'),
      invited: field('Invitation sent', 'boolean', { default: false }),
      events: field('Events', 'relation', { target: plainEvents.id, many: true }),
    });
    const f = guests.f;
    // Each event counts the guests who chose it, and the people in their parties.
    const events = withFields(plainEvents, {
      guests: field('Guest count', 'rollup', {
        through: f.events,
        throughCollection: guests.id,
        aggregate: 'count',
      }),
      people: field('People invited', 'rollup', {
        through: f.events,
        throughCollection: guests.id,
        aggregate: 'sum',
        aggregateFieldId: f.partySize,
      }),
    });
    const e = events.f;

    const reply = (answer: string, message: string) =>
      action(
        `RSVP ${answer}`,
        step('updateRecord', { values: { [f.rsvp]: answer } }),
        toast(message),
      );
    const replyYes = reply(YES, 'Marked as coming 🎉');
    const replyMaybe = reply(MAYBE, 'Marked as maybe');
    const replyNo = reply(NO, 'Marked as not coming');
    const guest = recordScreens(guests, {
      noun: 'guest',
      remove: 'Remove',
      removeLabel: 'Remove from the list',
      addTitle: 'Add guest',
      addHeading: 'Add a guest',
      submit: 'Add guest',
      added: 'Guest added',
      screens: { detail: s.guest, add: s.addGuest, edit: s.editGuest },
      fields: [
        f.name,
        f.rsvp,
        f.partySize,
        f.events,
        f.group,
        f.email,
        f.phone,
        f.dietary,
        f.invited,
      ],
      addFields: [f.name, f.partySize, f.events, f.group, f.email, f.phone, f.dietary],
      addHint: 'Count everyone in their party, children included, so the head count is right.',
    });

    const event = recordScreens(events, {
      noun: 'event',
      article: 'an',
      remove: 'Remove',
      addTitle: 'Add event',
      addHeading: 'Add an event',
      submit: 'Add event',
      added: 'Event added',
      screens: { detail: s.event, add: s.addEvent, edit: s.editEvent },
      fields: [e.name, e.when, e.place, e.guests, e.people],
      addFields: [e.name, e.when, e.place],
      addHint: 'Guests choose the events they come to when you add or edit them.',
    });

    const guestList = (filter: { op: 'equals'; value: string } | null, emptyText: string) =>
      guest.list({
        titleFieldId: f.name,
        subtitleFieldId: filter ? f.partySize : f.rsvp,
        filter: filter ? { fieldId: f.rsvp, ...filter } : null,
        sort: { fieldId: f.name, direction: 'asc' },
        emptyText,
      });

    const screens = [
      screen(s.overview, 'Overview', '🎉', [
        heading('Who’s coming', 1),
        component('stat', { label: 'Invitations', collectionId: guests.id }),
        component('stat', {
          label: 'People invited',
          collectionId: guests.id,
          aggregate: 'sum',
          fieldId: f.partySize,
        }),
        heading('Replies'),
        component('chart', {
          kind: 'pie',
          collectionId: guests.id,
          labelFieldId: f.rsvp,
          aggregate: 'count',
        }),
        heading('People by reply'),
        component('chart', {
          kind: 'bar',
          collectionId: guests.id,
          labelFieldId: f.rsvp,
          valueFieldId: f.partySize,
          aggregate: 'sum',
        }),
        divider(),
        heading('Coming'),
        guestList({ op: 'equals', value: YES }, 'No one has said yes yet.'),
        heading('Maybe'),
        guestList({ op: 'equals', value: MAYBE }, 'No maybes.'),
        heading('Waiting to hear from'),
        guestList({ op: 'equals', value: NOT_REPLIED }, 'Everyone has replied. 🎉'),
      ]),
      screen(s.guests, 'Guests', '👥', [
        heading('Everyone', 1),
        guestList(null, 'Your guest list is empty. Add the first person you want to invite.'),
        button('Add a guest', guest.goAdd),
        heading('Can’t come'),
        guestList({ op: 'equals', value: NO }, 'No one has declined.'),
      ]),
      screen(s.events, 'Events', '📅', [
        heading('Events', 1),
        event.list({
          titleFieldId: e.name,
          subtitleFieldId: e.when,
          sort: { fieldId: e.when, direction: 'asc' },
          emptyText:
            'No events yet. Add the ceremony, the dinner or the party, then pick them for each guest.',
        }),
        button('Add an event', event.goAdd),
      ]),
      screen(s.invitations, 'Invitations', '✉️', [
        heading('Invitations', 1),
        text('Tick each guest once their invitation is in the post or in their inbox.'),
        component('checklist', {
          collectionId: guests.id,
          titleFieldId: f.name,
          checkFieldId: f.invited,
        }),
      ]),
      guest.detailScreen('Guest', '🙂', [
        heading('Their reply', 3),
        button('Coming', replyYes),
        button('Maybe', replyMaybe, 'secondary'),
        button('Not coming', replyNo, 'secondary'),
        divider(),
        guest.editButton(),
        guest.removeButton(),
      ]),
      guest.addScreen,
      guest.editScreen,
      event.detailScreen('Event', '📅', [divider(), event.editButton(), event.removeButton()]),
      event.addScreen,
      event.editScreen,
    ];

    return definition({
      title: 'Guest list',
      description:
        'Plan a party, wedding or dinner: who is invited, who has replied, how many people are coming and what they can eat.',
      icon,
      tags: ['events', 'party', 'planning'],
      preset: 'orchid',
      screens,
      collections: [guests, events],
      actions: [
        replyYes,
        replyMaybe,
        replyNo,
        guest.goAdd,
        guest.goEdit,
        guest.remove,
        guest.afterAdd,
        guest.afterEdit,
        event.goAdd,
        event.goEdit,
        event.remove,
        event.afterAdd,
        event.afterEdit,
      ],
    });
  },
};

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
  LIST_ITEM,
  navigate,
  recordScreens,
  screen,
  step,
  text,
  toast,
} from './builders';

const icon = { kind: 'emoji', emoji: '🧳', background: '#9a6b00' } as const;

export const packingList: AppTemplate = {
  id: 'packing-list',
  name: 'Packing list',
  summary: 'A checklist for every trip, grouped by bag, with the essentials you must not forget.',
  icon,
  build() {
    const s = ids('pack', 'toPack', 'item', 'addItem', 'editItem', 'essentials', 'essential');

    const items = collection('Items', {
      name: field('Item', 'text', { required: true }),
      quantity: field('How many', 'number', { required: true, default: 1 }),
      bag: field('Bag', 'select', {
        required: true,
        default: 'Suitcase',
        options: ['Suitcase', 'Carry-on', 'Backpack', 'Wear it'],
      }),
      kind: field('Kind', 'select', {
        default: 'Clothes',
        options: ['Clothes', 'Toiletries', 'Documents', 'Tech', 'Health', 'Other'],
      }),
      packed: field('Packed', 'boolean', { default: false }),
    });
    const essentials = collection(
      'Essentials',
      {
        name: field('Item', 'text', { required: true }),
        why: field('Why', 'text'),
        bag: field('Bag', 'select', {
          default: 'Carry-on',
          options: ['Suitcase', 'Carry-on', 'Backpack', 'Wear it'],
        }),
      },
      [
        {
          name: 'Passport or ID',
          why: 'You cannot board or check in without it.',
          bag: 'Carry-on',
        },
        { name: 'Phone charger and plug adaptor', why: 'Sockets differ abroad.', bag: 'Carry-on' },
        {
          name: 'Medication',
          why: 'Keep it with you in case your bag goes astray.',
          bag: 'Carry-on',
        },
        {
          name: 'Travel insurance details',
          why: 'You will need the policy number in an emergency.',
          bag: 'Carry-on',
        },
        { name: 'House keys', why: 'For the moment you get home, tired.', bag: 'Wear it' },
      ],
    );
    const f = items.f;

    const item = recordScreens(items, {
      ...LIST_ITEM,
      screens: { detail: s.item, add: s.addItem, edit: s.editItem },
      fields: [f.name, f.quantity, f.bag, f.kind, f.packed],
      addFields: [f.name, f.quantity, f.bag, f.kind],
    });
    const goEssentials = action('Show the essentials', navigate(s.essentials));
    const markPacked = action(
      'Mark as packed',
      step('setField', { fieldId: f.packed, value: 'true' }),
      toast('Packed ✔'),
      back(),
    );
    const addEssential = action(
      'Add essential to my list',
      step('createRecord', {
        collectionId: items.id,
        values: { [f.name]: fromRecord(essentials.f.name), [f.bag]: fromRecord(essentials.f.bag) },
      }),
      toast('Added to your packing list'),
      back(),
    );

    const screens = [
      screen(s.pack, 'Pack', '🧳', [
        heading('Packing list', 1),
        text(
          'Tick things off as they go into the bag. Untick everything after the trip to reuse the list.',
        ),
        component('checklist', {
          collectionId: items.id,
          titleFieldId: f.name,
          checkFieldId: f.packed,
        }),
        button('Add an item', item.goAdd),
        button('Don’t forget…', goEssentials, 'secondary'),
        divider(),
        component('stat', { label: 'Things on the list', collectionId: items.id }),
        component('stat', {
          label: 'Pieces in total',
          collectionId: items.id,
          aggregate: 'sum',
          fieldId: f.quantity,
        }),
        component('chart', {
          kind: 'bar',
          collectionId: items.id,
          labelFieldId: f.bag,
          valueFieldId: f.quantity,
          aggregate: 'sum',
        }),
      ]),
      screen(s.toPack, 'Still to pack', '📦', [
        heading('Still to pack', 1),
        item.list({
          titleFieldId: f.name,
          subtitleFieldId: f.bag,
          filter: { fieldId: f.packed, op: 'isFalse', value: '' },
          sort: { fieldId: f.bag, direction: 'asc' },
          emptyText: 'All packed. Have a great trip!',
        }),
      ]),
      item.detailScreen('Item', '🏷️', [
        button('Mark as packed', markPacked),
        item.editButton(),
        item.removeButton(),
      ]),
      item.addScreen,
      item.editScreen,
      screen(s.essentials, 'Essentials', '⭐', [
        heading('Don’t forget', 1),
        text('The things people most often leave behind. Tap one to add it to your list.'),
        component('list', {
          collectionId: essentials.id,
          titleFieldId: essentials.f.name,
          subtitleFieldId: essentials.f.why,
          emptyText: 'No essentials listed.',
          detailScreenId: s.essential,
        }),
      ]),
      screen(s.essential, 'Essential', '⭐', [
        component('detail', { fieldIds: [essentials.f.name, essentials.f.why, essentials.f.bag] }),
        button('Add to my packing list', addEssential),
      ]),
    ];

    return definition({
      title: 'Packing list',
      description:
        'Pack without the last-minute panic: a checklist of everything you are bringing, what goes in which bag, and the essentials people most often forget.',
      icon,
      tags: ['travel', 'checklist'],
      preset: 'citrus',
      screens,
      collections: [items, essentials],
      actions: [
        item.goAdd,
        item.goEdit,
        goEssentials,
        markPacked,
        item.remove,
        item.afterAdd,
        item.afterEdit,
        addEssential,
      ],
    });
  },
};

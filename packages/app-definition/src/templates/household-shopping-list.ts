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
  heading,
  ids,
  LIST_ITEM,
  navigate,
  recordScreens,
  screen,
  sharedInSpace,
  step,
  text,
  toast,
} from './builders';

const icon = { kind: 'emoji', emoji: '🛒', background: '#2e6b3f' } as const;

const AISLES = ['Fruit & veg', 'Dairy & eggs', 'Bakery', 'Pantry', 'Frozen', 'Household', 'Other'];
const WHEN = ['Today', 'This week', 'This weekend'];

/**
 * Both collections are shared in a space: a visitor creates one for the household and invites the
 * others. Anyone there may change an item (whoever is at the shop ticks it off); a chore can only
 * be changed by the person who took it on.
 */
export const householdShoppingList: AppTemplate = {
  id: 'household-shopping-list',
  name: 'Household shopping list',
  summary:
    'One shopping list for the whole household, shared with the people you invite, and who takes on which chore.',
  icon,
  build() {
    const s = ids(
      'shopping',
      'toBuy',
      'item',
      'addItem',
      'editItem',
      'chores',
      'chore',
      'addChore',
    );

    const items = sharedInSpace(
      collection('Items', {
        name: field('Item', 'text', { required: true }),
        quantity: field('Quantity', 'number', { required: true, default: 1 }),
        aisle: field('Aisle', 'select', { required: true, default: 'Other', options: AISLES }),
        note: field('Note', 'text'),
        bought: field('Bought', 'boolean', { default: false }),
      }),
      'anyone',
    );
    const chores = sharedInSpace(
      collection('Chores', {
        name: field('Chore', 'text', { required: true }),
        when: field('When', 'select', { required: true, default: 'This week', options: WHEN }),
        done: field('Done', 'boolean', { default: false }),
      }),
      'author',
    );
    const f = items.f;
    const c = chores.f;

    const item = recordScreens(items, {
      ...LIST_ITEM,
      screens: { detail: s.item, add: s.addItem, edit: s.editItem },
      fields: [f.name, f.quantity, f.aisle, f.note, f.bought],
      addFields: [f.name, f.quantity, f.aisle, f.note],
    });
    const goToBuy = action('Show what is still to buy', navigate(s.toBuy));
    const markBought = action(
      'Mark as bought',
      step('setField', { fieldId: f.bought, value: 'true' }),
      toast('Bought ✔'),
      back(),
    );
    const goAddChore = action('Open the add-chore form', navigate(s.addChore));
    const markDone = action(
      'Mark the chore as done',
      step('setField', { fieldId: c.done, value: 'true' }),
      toast('Done, thank you!'),
      back(),
    );
    const removeChore = action(
      'Remove chore',
      step('deleteRecord', {}),
      toast('Chore removed'),
      back(),
    );
    const afterAddChore = action('After adding a chore', toast('It’s yours'), back());

    const screens = [
      screen(s.shopping, 'Shopping', '🛒', [
        heading('Shopping list', 1),
        text(
          'Everyone you invite to your space sees this list. Add what runs out, tick it off at the shop.',
        ),
        component('checklist', {
          collectionId: items.id,
          titleFieldId: f.name,
          checkFieldId: f.bought,
        }),
        button('Add an item', item.goAdd),
        button('Still to buy, by aisle', goToBuy, 'secondary'),
        divider(),
        component('stat', { label: 'Items on the list', collectionId: items.id }),
      ]),
      screen(s.toBuy, 'To buy', '🧺', [
        heading('Still to buy', 1),
        item.list({
          titleFieldId: f.name,
          subtitleFieldId: f.aisle,
          filter: { fieldId: f.bought, op: 'isFalse', value: '' },
          sort: { fieldId: f.aisle, direction: 'asc' },
          emptyText: 'Nothing left to buy.',
        }),
      ]),
      item.detailScreen('Item', '🏷️', [
        button('Mark as bought', markBought),
        item.editButton(),
        item.removeButton(),
      ]),
      item.addScreen,
      item.editScreen,
      screen(s.chores, 'Chores', '🧽', [
        heading('Chores', 1),
        text(
          'Take on a chore by adding it. Everyone in the space sees who does what; only you can tick off or remove yours.',
        ),
        component('list', {
          collectionId: chores.id,
          titleFieldId: c.name,
          subtitleFieldId: c.when,
          filter: { fieldId: c.done, op: 'isFalse', value: '' },
          emptyText: 'No chores waiting.',
          detailScreenId: s.chore,
        }),
        button('Take on a chore', goAddChore),
      ]),
      screen(s.chore, 'Chore', '🧽', [
        component('detail', { fieldIds: [c.name, c.when, c.done] }),
        button('Mark as done', markDone),
        button('Remove chore', removeChore, 'secondary'),
      ]),
      screen(s.addChore, 'Add chore', '➕', [
        heading('Take on a chore', 1),
        component('form', {
          collectionId: chores.id,
          mode: 'create',
          fieldIds: [c.name, c.when],
          submitLabel: 'I’ll do it',
          actionId: afterAddChore.id,
        }),
      ]),
    ];

    return definition({
      title: 'Household shopping list',
      description:
        'A shopping list shared with the people you invite: everyone adds what runs out and ticks it off at the shop. Chores too, each ticked off by the person who took it on.',
      icon,
      tags: ['household', 'shopping', 'shared'],
      preset: 'meadow',
      screens,
      collections: [items, chores],
      actions: [
        item.goAdd,
        goToBuy,
        item.goEdit,
        markBought,
        item.remove,
        item.afterAdd,
        item.afterEdit,
        goAddChore,
        markDone,
        removeChore,
        afterAddChore,
      ],
    });
  },
};

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
  withFields,
} from './builders';

const icon = { kind: 'emoji', emoji: '💰', background: '#3f5b2e' } as const;

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

const CATEGORIES: Array<[string, string]> = [
  ['Housing', 'Rent or mortgage, home insurance, repairs and furniture.'],
  ['Bills', 'Energy, water, phone, internet, subscriptions and council tax.'],
  ['Groceries', 'Food and household supplies from the shops or delivered.'],
  ['Transport', 'Fuel, fares, parking, bike repairs and car costs.'],
  ['Eating out', 'Restaurants, cafés, takeaways and lunches bought at work.'],
  ['Health', 'Prescriptions, dentist, glasses, gym and sports clubs.'],
  ['Fun', 'Hobbies, outings, games, books, music and presents.'],
  ['Other', 'Anything that does not fit above. If it keeps coming up, give it a category.'],
];

export const budget: AppTemplate = {
  id: 'budget',
  name: 'Budget',
  summary: 'Track what you spend by category and by month, and see where the money goes.',
  icon,
  build() {
    const s = ids(
      'overview',
      'expenses',
      'bills',
      'expense',
      'addExpense',
      'editExpense',
      'categories',
      'category',
    );

    const plainCategories = collection(
      'Categories',
      {
        name: field('Category', 'text', { required: true }),
        covers: field('What goes here', 'longText'),
      },
      CATEGORIES.map(([name, covers]) => ({ name, covers })),
    );
    const expenses = collection('Expenses', {
      what: field('What', 'text', { required: true }),
      amount: field('Amount', 'currency', { required: true }),
      // A link to one of the categories (the app's own records, which every visitor sees), so
      // each category can add up the expenses in it.
      category: field('Category', 'relation', {
        required: true,
        target: plainCategories.id,
        many: false,
      }),
      month: field('Month', 'select', { required: true, options: MONTHS }),
      date: field('Date', 'date'),
      paidWith: field('Paid with', 'select', {
        default: 'Card',
        options: ['Card', 'Cash', 'Bank transfer', 'Direct debit'],
      }),
      recurring: field('Repeats every month', 'boolean', { default: false }),
      notes: field('Notes', 'longText'),
    });
    // Each category sums, counts and averages the expenses that chose it.
    const fromExpenses = { through: expenses.f.category, throughCollection: expenses.id };
    const categories = withFields(plainCategories, {
      spent: field('Spent', 'rollup', {
        ...fromExpenses,
        aggregate: 'sum',
        aggregateFieldId: expenses.f.amount,
      }),
      count: field('Expenses', 'rollup', { ...fromExpenses, aggregate: 'count' }),
      average: field('Average expense', 'rollup', {
        ...fromExpenses,
        aggregate: 'average',
        aggregateFieldId: expenses.f.amount,
      }),
    });
    const c = categories.f;
    const f = expenses.f;
    const allFields = [
      f.what,
      f.amount,
      f.category,
      f.month,
      f.date,
      f.paidWith,
      f.recurring,
      f.notes,
    ];

    const goCategories = action('Explain the categories', navigate(s.categories));
    const expense = recordScreens(expenses, {
      noun: 'expense',
      article: 'an',
      remove: 'Delete',
      opener: 'Open the expense form',
      addTitle: 'Add expense',
      addHeading: 'Add an expense',
      submit: 'Add expense',
      added: 'Expense added',
      screens: { detail: s.expense, add: s.addExpense, edit: s.editExpense },
      fields: allFields,
      addFields: allFields,
      underAddForm: [button('Which category?', goCategories, 'secondary')],
    });

    const screens = [
      screen(s.overview, 'Overview', '💰', [
        heading('Where the money goes', 1),
        button('Add an expense', expense.goAdd),
        component('stat', {
          label: 'Spent in total',
          collectionId: expenses.id,
          aggregate: 'sum',
          fieldId: f.amount,
        }),
        component('stat', { label: 'Expenses recorded', collectionId: expenses.id }),
        component('stat', {
          label: 'Average expense',
          collectionId: expenses.id,
          aggregate: 'average',
          fieldId: f.amount,
        }),
        component('stat', {
          label: 'Biggest single expense',
          collectionId: expenses.id,
          aggregate: 'max',
          fieldId: f.amount,
        }),
        divider(),
        heading('By category'),
        component('chart', {
          kind: 'pie',
          collectionId: expenses.id,
          labelFieldId: f.category,
          valueFieldId: f.amount,
          aggregate: 'sum',
        }),
        // Every category with what it adds up to, biggest first; a row opens its expenses.
        component('list', {
          collectionId: categories.id,
          view: 'table',
          titleFieldId: c.name,
          subtitleFieldId: c.spent,
          columnFieldIds: [c.name, c.spent, c.count, c.average],
          sort: { fieldId: c.spent, direction: 'desc' },
          search: false,
          emptyText: 'No categories yet.',
          detailScreenId: s.category,
        }),
        heading('By month'),
        component('chart', {
          kind: 'bar',
          collectionId: expenses.id,
          labelFieldId: f.month,
          valueFieldId: f.amount,
          aggregate: 'sum',
        }),
      ]),
      screen(s.expenses, 'Expenses', '🧾', [
        heading('Expenses', 1),
        // A table: what, how much, where and when side by side, sortable by any of them.
        expense.list({
          titleFieldId: f.what,
          subtitleFieldId: f.amount,
          view: 'table',
          columnFieldIds: [f.what, f.amount, f.category, f.date],
          sort: { fieldId: f.date, direction: 'desc' },
          emptyText:
            'Nothing spent yet. Add expenses as they happen, or once a week from your statement.',
        }),
        button('Add an expense', expense.goAdd),
      ]),
      screen(s.bills, 'Bills', '🔁', [
        heading('Monthly bills', 1),
        text(
          'Expenses marked “Repeats every month”, biggest first. Worth checking once a year for a better deal.',
        ),
        expense.list({
          titleFieldId: f.what,
          subtitleFieldId: f.amount,
          filter: { fieldId: f.recurring, op: 'isTrue', value: '' },
          sort: { fieldId: f.amount, direction: 'desc' },
          emptyText:
            'No repeating bills yet. Tick “Repeats every month” when you add rent, phone or subscriptions.',
        }),
      ]),
      expense.detailScreen('Expense', '🧾', [expense.editButton(), expense.removeButton()]),
      expense.addScreen,
      expense.editScreen,
      screen(s.categories, 'Categories', '🏷️', [
        heading('Categories', 1),
        text(
          'What belongs in each category, so the same kind of spending always lands in the same place.',
        ),
        component('list', {
          collectionId: categories.id,
          titleFieldId: c.name,
          subtitleFieldId: c.covers,
          emptyText: 'No categories described yet.',
          detailScreenId: s.category,
        }),
      ]),
      screen(s.category, 'Category', '🏷️', [
        // The expenses in this category are listed under these fields (so no count of them here).
        component('detail', { fieldIds: [c.name, c.covers, c.spent, c.average] }),
      ]),
    ];

    return definition({
      title: 'Budget',
      description:
        'Write down what you spend, sorted into categories and months. Each category adds up what you spent in it; totals, averages and charts show where the money goes, and repeating bills are kept together.',
      icon,
      tags: ['money', 'budget', 'finance'],
      preset: 'slate',
      screens,
      collections: [expenses, categories],
      actions: [
        expense.goAdd,
        expense.goEdit,
        goCategories,
        expense.remove,
        expense.afterAdd,
        expense.afterEdit,
      ],
    });
  },
};

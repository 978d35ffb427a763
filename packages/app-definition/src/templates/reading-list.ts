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
} from './builders';

const icon = { kind: 'emoji', emoji: '📚', background: '#1d4e89' } as const;

const WANT = 'Want to read';
const READING = 'Reading';
const READ = 'Read';

export const readingList: AppTemplate = {
  id: 'reading-list',
  name: 'Reading list',
  summary:
    'Books you want to read, are reading and have finished, with their covers, ratings and notes.',
  icon,
  build() {
    const s = ids(
      'reading',
      'wantToRead',
      'finished',
      'shelves',
      'covers',
      'book',
      'addBook',
      'editBook',
    );

    const books = collection('Books', {
      title: field('Title', 'text', { required: true }),
      author: field('Author', 'text', { required: true }),
      status: field('Status', 'select', {
        required: true,
        default: WANT,
        options: [WANT, READING, READ],
      }),
      genre: field('Genre', 'select', {
        options: ['Fiction', 'Non-fiction', 'Poetry', 'Graphic novel', 'Other'],
      }),
      rating: field('Rating', 'rating'),
      finished: field('Finished on', 'date'),
      recommendedBy: field('Recommended by', 'text'),
      notes: field('Notes', 'longText'),
      // A photo of the cover, taken or picked by the reader: a template's own records could not
      // carry one (no bytes on the server for them), so the gallery's placeholder stands in.
      cover: field('Cover', 'image'),
    });
    const f = books.f;

    const book = recordScreens(books, {
      noun: 'book',
      remove: 'Remove',
      removeLabel: 'Remove from my list',
      addTitle: 'Add a book',
      submit: 'Add book',
      added: 'Book added',
      screens: { detail: s.book, add: s.addBook, edit: s.editBook },
      fields: [
        f.title,
        f.author,
        f.cover,
        f.status,
        f.genre,
        f.rating,
        f.finished,
        f.recommendedBy,
        f.notes,
      ],
      addFields: [f.title, f.author, f.status, f.genre, f.recommendedBy, f.cover],
    });
    const startReading = action(
      'Start reading',
      step('updateRecord', { values: { [f.status]: READING } }),
      toast('Enjoy it! Moved to Reading now.'),
    );
    const markRead = action(
      'Mark as read',
      step('updateRecord', { values: { [f.status]: READ } }),
      toast('Finished! Add a rating and the date under Edit.'),
    );

    const statusList = (status: string, emptyText: string, sortByFinished = false) =>
      book.list({
        titleFieldId: f.title,
        subtitleFieldId: f.author,
        filter: { fieldId: f.status, op: 'equals', value: status },
        sort: sortByFinished
          ? { fieldId: f.finished, direction: 'desc' }
          : { fieldId: f.title, direction: 'asc' },
        emptyText,
      });

    const screens = [
      screen(s.reading, 'Reading now', '📖', [
        heading('Reading now', 1),
        statusList(READING, 'Nothing on the go. Pick something from your want-to-read pile.'),
        button('Add a book', book.goAdd),
        divider(),
        component('stat', { label: 'Books in your library', collectionId: books.id }),
        component('stat', {
          label: 'Average rating',
          collectionId: books.id,
          aggregate: 'average',
          fieldId: f.rating,
        }),
      ]),
      screen(s.wantToRead, 'Want to read', '🔖', [
        heading('Want to read', 1),
        text(
          'Heard about a good book? Add it here so it is waiting when you finish your current one.',
        ),
        statusList(
          WANT,
          'Your to-read pile is empty. Add the next book you have heard good things about.',
        ),
        button('Add a book', book.goAdd),
      ]),
      screen(s.finished, 'Finished', '✅', [
        heading('Finished', 1),
        statusList(READ, 'Books you finish will collect here.', true),
        divider(),
        heading('Your shelves'),
        component('chart', {
          kind: 'pie',
          collectionId: books.id,
          labelFieldId: f.status,
          aggregate: 'count',
        }),
        component('chart', {
          kind: 'bar',
          collectionId: books.id,
          labelFieldId: f.genre,
          valueFieldId: f.rating,
          aggregate: 'average',
        }),
        component('stat', {
          label: 'Highest rating',
          collectionId: books.id,
          aggregate: 'max',
          fieldId: f.rating,
        }),
      ]),
      book.detailScreen('Book', '📕', [
        button('Start reading', startReading),
        button('Mark as read', markRead),
        book.editButton(),
        divider(),
        component('link', {
          label: 'Look it up on Open Library',
          url: 'https://openlibrary.org/',
        }),
        book.removeButton(),
      ]),
      book.addScreen,
      book.editScreen,
      // Last, so the screens before it keep their places (tests rename screens by position).
      screen(s.shelves, 'All books', '🗂️', [
        heading('All books', 1),
        text('Drag a book to another column, or use “Move to…”, as you start or finish it.'),
        // Every book on a board by its status: the three screens above in one place.
        book.list({
          titleFieldId: f.title,
          subtitleFieldId: f.author,
          view: 'board',
          groupFieldId: f.status,
          sort: { fieldId: f.title, direction: 'asc' },
          emptyText: 'No books yet. Add the one you are reading now.',
        }),
        button('Add a book', book.goAdd),
      ]),
      screen(s.covers, 'Covers', '🖼️', [
        heading('Covers', 1),
        text('Every book by its cover. Add a photo of one under Edit, or when you add the book.'),
        // A book without a cover photo shows the gallery's placeholder and its title.
        book.list({
          titleFieldId: f.title,
          subtitleFieldId: f.author,
          view: 'gallery',
          imageFieldId: f.cover,
          sort: { fieldId: f.title, direction: 'asc' },
          emptyText: 'No books yet. Add one and take a photo of its cover.',
        }),
        button('Add a book', book.goAdd),
      ]),
    ];

    return definition({
      title: 'Reading list',
      description:
        'Keep track of the books you want to read, the ones on your nightstand and the ones you have finished, with their covers, ratings, notes and who recommended them.',
      icon,
      tags: ['books', 'reading'],
      preset: 'harbor',
      theme: { font: 'serif' },
      screens,
      collections: [books],
      actions: [
        book.goAdd,
        book.goEdit,
        startReading,
        markRead,
        book.remove,
        book.afterAdd,
        book.afterEdit,
      ],
    });
  },
};

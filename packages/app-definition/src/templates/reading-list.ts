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
  navigate,
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
  summary: 'Books you want to read, are reading and have finished, with ratings and notes.',
  icon,
  build() {
    const s = ids('reading', 'wantToRead', 'finished', 'book', 'addBook', 'editBook');

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
      rating: field('Rating (1–5)', 'number'),
      finished: field('Finished on', 'date'),
      recommendedBy: field('Recommended by', 'text'),
      notes: field('Notes', 'longText'),
    });
    const f = books.f;

    const goAdd = action('Open the add-book form', navigate(s.addBook));
    const goEdit = action('Edit this book', navigate(s.editBook));
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
    const removeBook = action(
      'Remove book',
      step('deleteRecord', {}),
      toast('Book removed'),
      back(),
    );
    const afterAdd = action('After adding a book', toast('Book added'), back());
    const afterEdit = action('After editing a book', toast('Changes saved'), back());

    const statusList = (status: string, emptyText: string, sortByFinished = false) =>
      component('list', {
        collectionId: books.id,
        titleFieldId: f.title,
        subtitleFieldId: f.author,
        filter: { fieldId: f.status, op: 'equals', value: status },
        sort: sortByFinished
          ? { fieldId: f.finished, direction: 'desc' }
          : { fieldId: f.title, direction: 'asc' },
        emptyText,
        detailScreenId: s.book,
      });

    const screens = [
      screen(s.reading, 'Reading now', '📖', [
        heading('Reading now', 1),
        statusList(READING, 'Nothing on the go. Pick something from your want-to-read pile.'),
        button('Add a book', goAdd),
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
        button('Add a book', goAdd),
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
      screen(s.book, 'Book', '📕', [
        component('detail', {
          fieldIds: [
            f.title,
            f.author,
            f.status,
            f.genre,
            f.rating,
            f.finished,
            f.recommendedBy,
            f.notes,
          ],
        }),
        button('Start reading', startReading),
        button('Mark as read', markRead),
        button('Edit', goEdit, 'secondary'),
        divider(),
        component('link', {
          label: 'Look it up on Open Library',
          url: 'https://openlibrary.org/',
        }),
        button('Remove from my list', removeBook, 'secondary'),
      ]),
      screen(s.addBook, 'Add a book', '➕', [
        heading('Add a book', 1),
        component('form', {
          collectionId: books.id,
          mode: 'create',
          fieldIds: [f.title, f.author, f.status, f.genre, f.recommendedBy],
          submitLabel: 'Add book',
          actionId: afterAdd.id,
        }),
      ]),
      screen(s.editBook, 'Edit book', '✏️', [
        heading('Edit book', 1),
        component('form', {
          collectionId: books.id,
          mode: 'edit',
          fieldIds: [
            f.title,
            f.author,
            f.status,
            f.genre,
            f.rating,
            f.finished,
            f.recommendedBy,
            f.notes,
          ],
          submitLabel: 'Save changes',
          actionId: afterEdit.id,
        }),
      ]),
    ];

    return definition({
      title: 'Reading list',
      description:
        'Keep track of the books you want to read, the ones on your nightstand and the ones you have finished, with ratings, notes and who recommended them.',
      icon,
      tags: ['books', 'reading'],
      preset: 'harbor',
      theme: { font: 'serif' },
      screens,
      collections: [books],
      actions: [goAdd, goEdit, startReading, markRead, removeBook, afterAdd, afterEdit],
    });
  },
};

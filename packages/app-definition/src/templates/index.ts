import type { AppDefinition } from '../schema/definition';
import { LIMITS } from '../schema/limits';
import { DEFAULT_APP_ICON } from '../schema/meta';
import type { AppTemplate } from './app-template';
import { definition, heading, ids, screen } from './builders';
import { budget } from './budget';
import { guestList } from './guest-list';
import { habitTracker } from './habit-tracker';
import { householdShoppingList } from './household-shopping-list';
export { habitTrackerShowcase } from './habit-tracker';
import { packingList } from './packing-list';
import { readingList } from './reading-list';
import { recipeBook } from './recipe-book';
import { workoutLog } from './workout-log';

export type { AppTemplate } from './app-template';
export type { EmojiIcon } from './builders';

/** The templates `/create` offers, in display order. */
export const APP_TEMPLATES: readonly AppTemplate[] = Object.freeze([
  habitTracker,
  readingList,
  recipeBook,
  workoutLog,
  guestList,
  budget,
  packingList,
  householdShoppingList,
]);

const BLANK_TITLE = 'My app';

/**
 * The "blank app": one Home screen holding a heading with the app's title, the default theme and
 * icon. A blank or whitespace title becomes "My app"; a long one is cut to the title limit.
 */
export function blankDefinition(title?: string): AppDefinition {
  const name = (title?.trim() || BLANK_TITLE).slice(0, LIMITS.titleLength).trim();
  const { home } = ids('home');
  return definition({
    title: name,
    description: '',
    // The same default icon as `createApp` and the meta schema.
    icon: DEFAULT_APP_ICON,
    tags: [],
    preset: 'meadow',
    screens: [screen(home, 'Home', '🏠', [heading(name, 1)])],
    collections: [],
    actions: [],
  });
}

import {
  type AppDefinition,
  appDefinitionSchema,
  habitTrackerShowcase,
} from '@pipit/app-definition';

/**
 * The `/demo1` showcase: Pipit's habit-tracker template as a fixed app, its ids written out in the
 * template (`habitTrackerShowcase`) because a visitor's data on their device refers to them.
 */

/** Where the showcase's data lives on the device (never synced, never merged into an account). */
export const SHOWCASE_DATA_DOCUMENT = 'data/demo1';

let built: AppDefinition | undefined;

/** The showcase app, checked against the schema once (a mistake there fails loudly in tests). */
export function showcaseDefinition(): AppDefinition {
  built ??= appDefinitionSchema.parse(habitTrackerShowcase());
  return built;
}

import type { AppDefinition } from '../schema/definition';
import type { EmojiIcon } from './builders';

/** A starting point offered by `/create`. */
export interface AppTemplate {
  /** Stable, kebab-case: names the template in URLs and analytics, never an entity id. */
  id: string;
  name: string;
  /** One sentence for the template picker. */
  summary: string;
  /** The same shape as the emoji form of the meta icon; `build()` uses it for the app's icon. */
  icon: EmojiIcon;
  /**
   * A complete, valid definition: a new object with fresh random ids on every call, to be written
   * once into the brand-new document of the app being created.
   */
  build(): AppDefinition;
}

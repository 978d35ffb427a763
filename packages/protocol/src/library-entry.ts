import type { z } from 'zod';
import * as zm from 'zod/mini';
import { appIconSchema, appIdSchema } from './app-basics';
import { lazySchema } from './lazy-schema';

/*
 * A library entry's schema (library.ts says what the library is), apart from the merging: the
 * installed app merges entries but reads them by hand (answer-readers.ts, `parseLibraryEntry`).
 * The installed app's first load is one chunk with every module its entry imports, and a zod
 * schema there that a lazily loaded part uses stays in it, with zod's core (docs/performance.md):
 * what the first screen needs of the protocol lives apart from the schemas.
 */

const timeSchema = lazySchema(() => zm.int().check(zm.nonnegative()));

export const libraryEntrySchema = lazySchema(() =>
  zm.object({
    appId: appIdSchema,
    title: zm.string().check(zm.maxLength(200)),
    icon: zm.nullable(appIconSchema),
    /** The author's username (cards link to their profile). */
    author: zm.string().check(zm.maxLength(60)),
    /** The published version last opened (null: never opened, only saved). */
    version: zm.nullable(zm.int().check(zm.gte(1))),
    openedAt: timeSchema,
    installedAt: zm.optional(timeSchema),
    savedAt: zm.optional(timeSchema),
    /** Removed from the library at this time; any later open, save or install brings it back. */
    removedAt: zm.optional(timeSchema),
  }),
);
export type LibraryEntry = z.infer<typeof libraryEntrySchema>;

import * as zm from 'zod/mini';
import { spaceIdSchema } from './spaces';
import { lazySchema } from './lazy-schema';

/*
 * Space activity (docs/product/reminders.md#space-activity): a person in a space chooses to be
 * told, in one notification per short burst, when others add or complete items there.
 */

/**
 * `PUT /api/spaces/{spaceId}/notifications`: the asker's choice for the space. `showNames` off
 * tells how many items, never their names.
 */
export const spaceActivityChoiceSchema = lazySchema(() =>
  zm.object({ enabled: zm.boolean(), showNames: zm.boolean() }),
);
export type SpaceActivityChoice = zm.infer<typeof spaceActivityChoiceSchema>;

/**
 * `GET` and `PUT /api/spaces/{spaceId}/notifications`: the choice (off, with names, until the
 * person turns it on) and how many of their devices take the space's app's notifications.
 */
export const spaceActivitySettingsSchema = lazySchema(() =>
  zm.object({
    spaceId: spaceIdSchema,
    enabled: zm.boolean(),
    showNames: zm.boolean(),
    devices: zm.number(),
  }),
);
export type SpaceActivitySettings = zm.infer<typeof spaceActivitySettingsSchema>;

/** `GET /api/account/space-notifications`: every space whose activity the person turned on. */
export const spaceActivityListSchema = lazySchema(() =>
  zm.object({
    spaces: zm.array(
      zm.object({
        spaceId: spaceIdSchema,
        spaceName: zm.string(),
        appId: zm.string(),
        appTitle: zm.string(),
        showNames: zm.boolean(),
      }),
    ),
  }),
);
export type SpaceActivityList = zm.infer<typeof spaceActivityListSchema>;

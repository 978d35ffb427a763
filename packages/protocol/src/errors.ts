import type { z } from 'zod';
import * as zm from 'zod/mini';
import { publishProblemSchema } from './published-app';
import { ERROR_CODES } from './error-codes';
import { lazySchema } from './lazy-schema';

export const apiErrorSchema = lazySchema(() =>
  zm.object({
    error: zm.object({
      code: zm.enum(ERROR_CODES),
      message: zm.string(),
      /** Field path → what is wrong with it (validation_failed, publish_invalid). */
      fields: zm.optional(zm.record(zm.string(), zm.string())),
      /** Set on server-side failures: the same digest is in the server log. */
      digest: zm.optional(zm.string()),
      /** Seconds, for rate_limited. */
      retryAfter: zm.optional(zm.int().check(zm.nonnegative())),
      /** publish_invalid: each problem with the entity it is in (`fields` has the same paths). */
      problems: zm.optional(zm.array(publishProblemSchema)),
      /** already_imported: the app the same file made here before. */
      appId: zm.optional(zm.string()),
    }),
  }),
);

export type ApiErrorBody = z.infer<typeof apiErrorSchema>;

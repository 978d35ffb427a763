import { appIconSchema, type AppIcon } from '@pipit/protocol';
import { z } from 'zod';
import { LIMITS } from './limits';

export { appIconSchema, type AppIcon };

/** A new app's icon, until its creator chooses one (the meta schema's default too). */
export const DEFAULT_APP_ICON: Readonly<Extract<AppIcon, { kind: 'emoji' }>> = Object.freeze({
  kind: 'emoji',
  emoji: '🐦',
  background: '#1a7f5a',
});

/** The currency of an app whose creator hasn't chosen one. */
export const DEFAULT_CURRENCY = 'USD';

export const appMetaSchema = z.object({
  title: z
    .string()
    .trim()
    .min(1, 'Give the app a title.')
    .max(LIMITS.titleLength, `Keep the title to ${LIMITS.titleLength} characters.`),
  description: z
    .string()
    .max(
      LIMITS.descriptionLength,
      `Keep the description to ${LIMITS.descriptionLength} characters.`,
    )
    .default(''),
  icon: z._default(appIconSchema, DEFAULT_APP_ICON),
  tags: z
    .array(z.string().trim().toLowerCase().min(1).max(LIMITS.tagLength))
    .max(LIMITS.tags, `Use at most ${LIMITS.tags} tags.`)
    .default([]),
  /** The ISO 4217 code currency fields show their amounts in (DEFAULT_CURRENCY when absent). */
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'Use a three-letter currency code, like EUR or USD.')
    .optional(),
});
export type AppMeta = z.infer<typeof appMetaSchema>;

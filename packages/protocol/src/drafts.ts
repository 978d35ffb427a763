import { z } from 'zod';
import { ID_PATTERN } from './ids';
import { lazySchema } from './lazy-schema';

/*
 * Drafts of an app (docs/product/drafts.md): a copy of the app's document that editors change on
 * the side — live together, offline too — while the app itself keeps changing; the draft takes the
 * app's new changes in ("Update draft") and is merged back through the same part-by-part review as
 * an Ask AI suggestion. Not on the installed app's path: classic zod.
 */

/** What one app keeps. */
export const DRAFT_LIMITS = {
  /** Open drafts at once; past it, one must be merged or deleted first. */
  openPerApp: 10,
  /** Merged and deleted ones kept (the newest), for History, without their documents. */
  closedPerApp: 50,
  /** A draft's name. */
  nameMaxLength: 80,
} as const;

export const DRAFT_STATUSES = ['open', 'merged', 'deleted'] as const;
export type DraftStatus = (typeof DRAFT_STATUSES)[number];

const name = () =>
  z
    .string()
    .trim()
    .min(1, 'Give the draft a name.')
    .max(
      DRAFT_LIMITS.nameMaxLength,
      `A draft’s name is at most ${DRAFT_LIMITS.nameMaxLength} characters.`,
    );

/**
 * `POST /api/apps/{id}/drafts` (owner and editors): a draft as the starter's device made it — its
 * id (the device's: sending it twice stores it once), its name, and the app's definition it began
 * from (`base`, a whole definition, checked as a checkpoint's). The device seeds the draft's
 * document (`draft/{appId}/{draftId}`) from its copy of the app before it sends this, and syncs
 * it once the server has answered.
 */
export const createDraftRequestSchema = lazySchema(() =>
  z.object({
    id: z.string().regex(ID_PATTERN, 'Not an id.'),
    name: name(),
    base: z.unknown(),
  }),
);
export type CreateDraftRequest = z.infer<typeof createDraftRequestSchema>;

/**
 * `PATCH /api/apps/{id}/drafts/{draftId}` (owner and editors): a new name, or a new base — the
 * app's definition the draft took in with "Update draft" (what the next merge compares against).
 */
export const updateDraftRequestSchema = lazySchema(() =>
  z
    .object({ name: name().optional(), base: z.unknown().optional() })
    .refine((value) => value.name !== undefined || value.base !== undefined, {
      message: 'Say what changes: a name or a base.',
    }),
);
export type UpdateDraftRequest = z.infer<typeof updateDraftRequestSchema>;

/**
 * `POST /api/apps/{id}/drafts/{draftId}/close` (owner and editors): the draft was merged into
 * the app (in part or whole), or is deleted. Either way its document goes.
 */
export const closeDraftRequestSchema = lazySchema(() =>
  z.object({
    outcome: z.enum(['merged', 'deleted'], { error: 'Say whether it was merged or deleted.' }),
  }),
);

const personSchema = lazySchema(() => z.object({ username: z.string(), displayName: z.string() }));

export const draftSchema = lazySchema(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    status: z.enum(DRAFT_STATUSES),
    createdAt: z.number(),
    /** Who started it; null once the account is deleted. */
    createdBy: personSchema.nullable(),
    /** When it last took the app's changes in (its start, until then). */
    baseAt: z.number(),
    closedAt: z.number().nullable(),
    closedBy: personSchema.nullable(),
  }),
);
export type DraftSummary = z.infer<typeof draftSchema>;

/** `GET /api/apps/{id}/drafts` (owner and collaborators): open ones, then closed ones, newest first. */
export const draftListSchema = lazySchema(() => z.object({ drafts: z.array(draftSchema) }));
export type DraftList = z.infer<typeof draftListSchema>;

/** `GET /api/apps/{id}/drafts/{draftId}`: one, with the definition it compares against. */
export const draftWithBaseSchema = lazySchema(() =>
  z.object({ draft: draftSchema, base: z.unknown() }),
);

import { z } from 'zod';
import {
  AI_INSTRUCTION_MAX_LENGTH,
  AI_SUMMARY_LINE_MAX_LENGTH,
  AI_SUMMARY_LINES_MAX,
  AI_REVISIONS_MAX,
} from './ai';
import { ID_PATTERN } from './ids';
import { lazySchema } from './lazy-schema';

/*
 * Ask AI's suggestions kept on the server (docs/product/ai-builder.md#suggestions-kept-for-review):
 * made by one editor, reviewed and accepted or rejected by any editor of the app, whether or not
 * the asker's dialog is still open. Not on the installed app's path: classic zod.
 */

/** What one app keeps. */
export const SUGGESTION_LIMITS = {
  /** Suggestions waiting for review at once; past it, the oldest must be dealt with first. */
  openPerApp: 20,
  /** Their stored (compressed) bytes together, at most. */
  openBytesPerApp: 20 * 1024 * 1024,
  /** Closed ones kept (the newest), for the record, without their definitions. */
  closedPerApp: 50,
} as const;

export const SUGGESTION_STATUSES = ['open', 'accepted', 'rejected', 'replaced'] as const;
export type SuggestionStatus = (typeof SUGGESTION_STATUSES)[number];

const instruction = () => z.string().trim().min(1).max(AI_INSTRUCTION_MAX_LENGTH);
const summary = () => z.array(z.string().max(AI_SUMMARY_LINE_MAX_LENGTH)).max(AI_SUMMARY_LINES_MAX);

/**
 * `POST /api/apps/{id}/suggestions` (owner and editors): a suggestion as the asker's device made
 * it — the app when it was made (`base`) and as the AI would make it (`proposed`), both whole
 * definitions — with the conversation that led to it. Its id is the device's: sending it twice
 * stores it once.
 */
export const createSuggestionRequestSchema = lazySchema(() =>
  z.object({
    id: z.string().regex(ID_PATTERN, 'Not an id.'),
    asked: instruction(),
    summary: summary(),
    earlier: z
      .array(z.object({ instruction: instruction(), summary: summary() }))
      .max(AI_REVISIONS_MAX),
    base: z.unknown(),
    proposed: z.unknown(),
  }),
);
export type CreateSuggestionRequest = z.infer<typeof createSuggestionRequestSchema>;

const personSchema = lazySchema(() => z.object({ username: z.string(), displayName: z.string() }));

export const suggestionSchema = lazySchema(() =>
  z.object({
    id: z.string(),
    asked: z.string(),
    summary: z.array(z.string()),
    status: z.enum(SUGGESTION_STATUSES),
    createdAt: z.number(),
    /** Who asked; null once the account is deleted. */
    createdBy: personSchema.nullable(),
    closedAt: z.number().nullable(),
    closedBy: personSchema.nullable(),
  }),
);
export type SuggestionSummary = z.infer<typeof suggestionSchema>;

/** `GET /api/apps/{id}/suggestions` (owner and collaborators): the open ones, newest first. */
export const suggestionListSchema = lazySchema(() =>
  z.object({ suggestions: z.array(suggestionSchema) }),
);
export type SuggestionList = z.infer<typeof suggestionListSchema>;

/** `GET /api/apps/{id}/suggestions/{suggestionId}`: one, with its definitions and conversation. */
export const suggestionWithDefinitionsSchema = lazySchema(() =>
  z.object({
    suggestion: suggestionSchema,
    earlier: z.array(z.object({ instruction: z.string(), summary: z.array(z.string()) })),
    base: z.unknown(),
    proposed: z.unknown(),
  }),
);

/**
 * `POST /api/apps/{id}/suggestions/{suggestionId}/close` (owner and editors): what became of an
 * open suggestion — taken in (in part or whole), turned down, or replaced by a revision.
 */
export const closeSuggestionRequestSchema = lazySchema(() =>
  z.object({
    outcome: z.enum(['accepted', 'rejected', 'replaced'], {
      error: 'Say whether it was accepted, rejected or replaced.',
    }),
  }),
);

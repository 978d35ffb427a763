import * as zm from 'zod/mini';
import { appIdSchema } from './app-basics';
import { ERROR_CODES } from './error-codes';
import { lazySchema } from './lazy-schema';

/*
 * AI on the server (docs/product/ai.md): runs of an app's AI actions, apps from a description, and
 * AI as a co-editor. zod/mini only: the installed app (`/apps/{id}/pwa`) runs AI actions, and its
 * JavaScript is budgeted (see published-app.ts).
 *
 * The model never sees a prompt from a browser. A run names the app and the AI action and sends the
 * values of the bindings its stored template uses (`record.title`, `input.note`, `user.name`); the
 * server builds the prompt itself, and refuses any binding the template does not use.
 */

/** Longest value one binding may carry into a prompt (longer is refused, not cut). */
export const AI_BINDING_MAX_LENGTH = 4_000;
/** Most bindings one run may send (a template cannot use more than this many different ones). */
export const AI_BINDINGS_MAX = 50;
/** Longest description of an app to make, and longest instruction for Ask AI. */
export const AI_DESCRIPTION_MAX_LENGTH = 2_000;
export const AI_INSTRUCTION_MAX_LENGTH = 1_000;

/**
 * Which definition the server reads the AI action from: `published` for visitors (the version they
 * run), `live` for the app's editors trying an action in the editor (its current, unpublished
 * state; others are refused with `forbidden`).
 */
export const AI_RUN_SOURCES = ['published', 'live'] as const;
export type AiRunSource = (typeof AI_RUN_SOURCES)[number];

/** `POST /api/ai/runs` */
export const aiRunRequestSchema = lazySchema(() =>
  zm.object({
    appId: appIdSchema,
    aiActionId: zm.string().check(zm.minLength(1), zm.maxLength(64)),
    source: zm._default(zm.enum(AI_RUN_SOURCES), 'published'),
    /** Binding (as `templateBindings` names it, e.g. `record.title`) → its value, as text. */
    bindings: zm.record(
      zm.string().check(zm.maxLength(256)),
      zm.string().check(zm.maxLength(AI_BINDING_MAX_LENGTH)),
    ),
  }),
);
export type AiRunRequest = zm.input<typeof aiRunRequestSchema>;

/**
 * A field value as a run's record output carries it (the collection's rules checked them): a list
 * of text is a multi-choice field's choices.
 */
const aiFieldValueSchema = lazySchema(() =>
  zm.union([zm.string(), zm.number(), zm.boolean(), zm.null(), zm.array(zm.string())]),
);

/** What a run produced: the answer's text, or a record's values by field id. */
export const aiRunOutputSchema = lazySchema(() =>
  zm.discriminatedUnion('kind', [
    zm.object({ kind: zm.literal('text'), text: zm.string() }),
    zm.object({ kind: zm.literal('record'), values: zm.record(zm.string(), aiFieldValueSchema) }),
  ]),
);
export type AiRunOutput = zm.infer<typeof aiRunOutputSchema>;

/** `POST /api/ai/runs`, 200. The client puts `output` where the AI action's target says. */
export const aiRunResponseSchema = lazySchema(() =>
  zm.object({
    output: aiRunOutputSchema,
    /** Runs left today for this person after this one. */
    remaining: zm.int().check(zm.nonnegative()),
  }),
);
export type AiRunResponse = zm.infer<typeof aiRunResponseSchema>;

/**
 * `GET /api/ai/status`: whether this server has a provider, and (signed in) how many runs the
 * person has left today. Everything that offers AI reads this first and says so when it is off.
 */
export const aiStatusSchema = lazySchema(() =>
  zm.object({
    available: zm.boolean(),
    /** The model's name as the operator configured it, for the editor's "what a run sends" list. */
    model: zm.nullable(zm.string()),
    dailyRuns: zm.int().check(zm.nonnegative()),
    /** null when signed out. */
    remaining: zm.nullable(zm.int().check(zm.nonnegative())),
  }),
);
export type AiStatus = zm.infer<typeof aiStatusSchema>;

/** `POST /api/ai/blueprints`: make an app from a description. */
export const aiBlueprintRequestSchema = lazySchema(() =>
  zm.object({
    description: zm
      .string()
      .check(zm.trim(), zm.minLength(1), zm.maxLength(AI_DESCRIPTION_MAX_LENGTH)),
  }),
);

/** Earlier turns of one Ask AI conversation a revision carries, at most. */
export const AI_REVISIONS_MAX = 5;
/** A line of an earlier suggestion's summary, at most (the client cuts a longer one it sends). */
export const AI_SUMMARY_LINE_MAX_LENGTH = 300;
/** Lines of an earlier suggestion's summary, at most: one per operation. */
export const AI_SUMMARY_LINES_MAX = 40;

const instructionSchema = () =>
  zm.string().check(zm.trim(), zm.minLength(1), zm.maxLength(AI_INSTRUCTION_MAX_LENGTH));

/**
 * `POST /api/ai/edits`: ask AI to change an app the person can edit. A revision ("ask for
 * changes") carries the conversation so far in `earlier`, oldest first: each instruction and the
 * summary of what was suggested for it (none of it was applied). The answer is a whole new
 * suggestion for the app as it is.
 */
export const aiEditRequestSchema = lazySchema(() =>
  zm.object({
    appId: appIdSchema,
    instruction: instructionSchema(),
    earlier: zm.optional(
      zm
        .array(
          zm.object({
            instruction: instructionSchema(),
            summary: zm
              .array(zm.string().check(zm.maxLength(AI_SUMMARY_LINE_MAX_LENGTH)))
              .check(zm.maxLength(AI_SUMMARY_LINES_MAX)),
          }),
        )
        .check(zm.maxLength(AI_REVISIONS_MAX)),
    ),
  }),
);
export type AiEditRequest = zm.infer<typeof aiEditRequestSchema>;

/**
 * `POST /api/ai/blueprints` answers `application/x-ndjson`, one of these per line: progress as the
 * model's answer arrives (the collections and screens it has named so far), then `done` with a
 * definition that passed the same parse and publish check as a hand-made app, or `error`. Errors
 * found before the answer starts (sign-in, quota, no provider) are ordinary JSON error answers.
 */
export const aiBlueprintLineSchema = lazySchema(() =>
  zm.discriminatedUnion('type', [
    zm.object({
      type: zm.literal('progress'),
      collections: zm.array(zm.string()),
      screens: zm.array(zm.string()),
    }),
    /** The app definition (the client parses it with `appDefinitionSchema`). */
    zm.object({ type: zm.literal('done'), definition: zm.unknown() }),
    /** A failure after the stream began: the code and words an error answer would carry. */
    zm.object({
      type: zm.literal('error'),
      error: zm.object({
        code: zm.enum(ERROR_CODES),
        message: zm.string(),
        /** `internal` only: the same digest is in the server log. */
        digest: zm.optional(zm.string()),
      }),
    }),
  ]),
);
export type AiBlueprintLine = zm.infer<typeof aiBlueprintLineSchema>;

/**
 * `POST /api/ai/edits`, 200: the proposed change — typed operations of the app-definition package
 * (the client checks them again with `validateEdits` before applying) and one readable line each.
 */
export const aiEditResponseSchema = lazySchema(() =>
  zm.object({
    operations: zm.array(zm.record(zm.string(), zm.unknown())),
    summary: zm.array(zm.string()),
  }),
);
export type AiEditResponse = zm.infer<typeof aiEditResponseSchema>;

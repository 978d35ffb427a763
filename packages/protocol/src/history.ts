import { z } from 'zod';
import { ID_PATTERN } from './ids';
import { lazySchema } from './lazy-schema';

const idSchema = lazySchema(() => z.string().regex(ID_PATTERN, 'Not an id.'));

/**
 * An app's history (docs/product/history.md): checkpoints of its definition, made automatically
 * (each publish, before an AI change or an import, a restore, and at most every 10 minutes of
 * editing) and by hand with a name. Restoring is a change the restorer's device makes to the live
 * document, so it merges with collaborators' edits and their Undo takes it back.
 */

export const CHECKPOINT_KINDS = ['auto', 'manual', 'publish', 'ai', 'import', 'restore'] as const;
export type CheckpointKind = (typeof CHECKPOINT_KINDS)[number];

/** Kinds thinned as they age; named and published checkpoints are kept until the app is deleted. */
export const THINNED_CHECKPOINT_KINDS: readonly CheckpointKind[] = [
  'auto',
  'ai',
  'import',
  'restore',
];

/** Automatic checkpoints while editing: at most one per this many ms of editing. */
export const AUTO_CHECKPOINT_INTERVAL_MS = 10 * 60_000;

/** What a checkpoint's history may hold on the free plan (docs/product/quotas.md). */
export const HISTORY_LIMITS = {
  /** Checkpoints one app keeps; past it the oldest automatic ones go first. */
  checkpointsPerApp: 200,
  /** Their stored (compressed) size together. */
  bytesPerApp: 20 * 1024 * 1024,
  nameLength: 80,
} as const;

const personSchema = lazySchema(() => z.object({ username: z.string(), displayName: z.string() }));

/** What changed since the checkpoint before it, counted per group and named (the first few). */
export const checkpointChangesSchema = lazySchema(() =>
  z.object({
    /** Per group (`app`, `theme`, `screens`, `components`, `collections`, `actions`). */
    counts: z.record(z.string(), z.number().int().min(0)),
    /** The names of the first changed things, for the list ("Home, Cart, Welcome heading"). */
    names: z.array(z.string()),
    /** One line a person reads: "2 screens, 5 components" or "No changes". */
    summary: z.string(),
    /** True for an app's first checkpoint: there is nothing before it to compare with. */
    first: z.boolean(),
  }),
);
export type CheckpointChanges = z.infer<typeof checkpointChangesSchema>;

export const checkpointSchema = lazySchema(() =>
  z.object({
    id: idSchema,
    kind: z.enum(CHECKPOINT_KINDS),
    /** A name given by hand, or what made it ("Before Ask AI", "Imported"); null for automatic ones. */
    name: z.string().nullable(),
    /** The published version a `publish` checkpoint is. */
    version: z.number().int().nullable(),
    createdAt: z.number(),
    /** Who made it by hand, published, or restored; null for automatic ones and deleted accounts. */
    createdBy: personSchema.nullable(),
    /** Whose edits it holds since the checkpoint before it (deleted accounts left out). */
    authors: z.array(personSchema),
    changes: checkpointChangesSchema,
    /** Its stored (compressed) size, counted against HISTORY_LIMITS.bytesPerApp. */
    bytes: z.number().int().min(0),
  }),
);
export type Checkpoint = z.infer<typeof checkpointSchema>;

/** `GET /api/apps/{id}/checkpoints` (owner and collaborators): newest first. */
export const checkpointListSchema = lazySchema(() =>
  z.object({
    checkpoints: z.array(checkpointSchema),
    usage: z.object({
      count: z.number().int(),
      bytes: z.number().int(),
      limitCount: z.number().int(),
      limitBytes: z.number().int(),
    }),
  }),
);
export type CheckpointList = z.infer<typeof checkpointListSchema>;

/**
 * `GET /api/apps/{id}/checkpoints/{checkpointId}`: one checkpoint with its definition (a
 * definition as `@pipit/app-definition` reads it; checked by the client before it is shown).
 */
export const checkpointWithDefinitionSchema = lazySchema(() =>
  z.object({
    checkpoint: checkpointSchema,
    definition: z.unknown(),
  }),
);

/**
 * `POST /api/apps/{id}/checkpoints` (owner and editors): a checkpoint by hand, or before a
 * restore. The device sends the definition it holds — the same it would restore or publish — so a
 * checkpoint made offline is the state its maker saw, uploaded when they are back online. The id
 * is the device's: sending it again changes nothing (201 the first time, 200 after).
 */
export const createCheckpointRequestSchema = lazySchema(() =>
  z.object({
    id: idSchema,
    kind: z.enum(['manual', 'restore']).default('manual'),
    name: z.string().trim().min(1, 'Give the checkpoint a name.').max(HISTORY_LIMITS.nameLength),
    /** When the device made it (a checkpoint made offline keeps its time; never in the future). */
    createdAt: z.number().int().min(0).optional(),
    definition: z.unknown(),
  }),
);
export type CreateCheckpointRequest = z.input<typeof createCheckpointRequestSchema>;

/**
 * A remix's original: the version the remix was made from (`base`) and the version it publishes
 * now (`latest`), both definitions, for a three-way merge on the device ("Pull changes").
 */
export const upstreamSchema = lazySchema(() =>
  z.object({
    source: z.object({ appId: idSchema, title: z.string(), author: personSchema }),
    base: z.object({ version: z.number().int(), definition: z.unknown() }),
    latest: z.object({
      version: z.number().int(),
      publishedAt: z.number(),
      definition: z.unknown(),
    }),
    /** The original publishes a newer version than the remix's base. */
    newer: z.boolean(),
  }),
);
export type Upstream = z.infer<typeof upstreamSchema>;

/**
 * `GET /api/apps/{id}/upstream` (owner and editors): the app's original, or null when it is not a
 * remix or its original is no longer published or visible to the asker (nothing to pull is not an
 * error: every editor asks).
 */
export const upstreamResponseSchema = lazySchema(() =>
  z.object({ upstream: upstreamSchema.nullable() }),
);

/**
 * `GET /api/apps/{id}/upstream?versions=1`: the same answer, its version numbers only — what an
 * open editor asks now and then to learn that the original published again, without
 * the two definitions; it asks for the whole answer only when these change.
 */
export const upstreamVersionsResponseSchema = lazySchema(() =>
  z.object({
    upstream: z.object({ base: z.number().int(), latest: z.number().int() }).nullable(),
  }),
);
export type UpstreamVersions = NonNullable<
  z.infer<typeof upstreamVersionsResponseSchema>['upstream']
>;

/**
 * `PUT /api/apps/{id}/upstream`: after pulling, the original's version pulled becomes the remix's
 * base (one of the original's published versions, no newer than the one published now).
 */
export const pulledVersionRequestSchema = lazySchema(() =>
  z.object({ version: z.number().int().min(1) }),
);

/**
 * Who made a change (docs/product/history.md#who-changed-what): a person, or a person through
 * something they ran — Ask AI's suggestion they accepted, a restore, a pull of a remix's original,
 * a draft merged back — or an import.
 */
export const CHANGE_AUTHOR_KINDS = ['person', 'ai', 'restore', 'pull', 'import', 'draft'] as const;
export type ChangeAuthorKind = (typeof CHANGE_AUTHOR_KINDS)[number];

/** What an app keeps of who changed what, and what one read answers. */
export const ATTRIBUTION_LIMITS = {
  /** Entries one app keeps; past it the oldest go. */
  entriesPerApp: 20_000,
  /** Entries one read answers at most. */
  perRead: 500,
  /** Entities one marker of a change's kind may name (a larger change is the person's). */
  markedEntities: 2_000,
} as const;

/** One entity changed by one author, as one store of the app's document found it. */
export const appChangeSchema = lazySchema(() =>
  z.object({
    /** An `EntityChange`'s entity ('component', 'app', …) and id. */
    entity: z.string(),
    id: z.string(),
    /** What changed of it: 'exists' (added or removed), or its properties ('title', 'props.text'). */
    paths: z.array(z.string()),
    kind: z.enum(CHANGE_AUTHOR_KINDS),
    /** Null once the account is deleted (and for an import's). */
    author: personSchema.nullable(),
    /** When the server received it: a change made offline counts from when it synced. */
    at: z.number(),
  }),
);
export type AppChange = z.infer<typeof appChangeSchema>;

/** `GET /api/apps/{id}/changes` (owner and collaborators): newest first. */
export const appChangeListSchema = lazySchema(() =>
  z.object({
    changes: z.array(appChangeSchema),
    /** Older entries in the range were left out (ATTRIBUTION_LIMITS.perRead). */
    more: z.boolean(),
  }),
);
export type AppChangeList = z.infer<typeof appChangeListSchema>;

const ENTITY_KINDS = [
  'app',
  'theme',
  'screen',
  'component',
  'collection',
  'field',
  'record',
  'action',
  'step',
  'aiAction',
  'reminder',
] as const;

const timeSchema = lazySchema(() =>
  z.coerce
    .number({ error: 'Give a time in milliseconds.' })
    .int('Give a time in milliseconds.')
    .min(0, 'Give a time in milliseconds.'),
);

/**
 * `GET /api/apps/{id}/changes?since=&until=&entity=&entityId=`: the app's changes in a range of
 * time (after `since`, up to `until`), or one entity's (both `entity` and `entityId`).
 */
export const appChangeQuerySchema = lazySchema(() =>
  z
    .object({
      since: timeSchema.optional(),
      until: timeSchema.optional(),
      entity: z.enum(ENTITY_KINDS, { error: 'Not a kind of thing an app holds.' }).optional(),
      entityId: z.string().min(1, 'Not an id.').max(64, 'Not an id.').optional(),
    })
    .refine((q) => (q.entity === undefined) === (q.entityId === undefined), {
      message: 'Give both the kind of thing and its id, or neither.',
      path: ['entityId'],
    }),
);

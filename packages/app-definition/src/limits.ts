/** SPEC §5 limits, each enforced with a clear error where it applies. */
export const LIMITS = {
  screens: 50,
  componentsPerScreen: 200,
  collections: 20,
  fieldsPerCollection: 50,
  creatorRecords: 2_000,
  documentBytes: 5 * 1024 * 1024,
  titleLength: 60,
  descriptionLength: 500,
  tags: 5,
  tagLength: 24,
} as const;

/** Stored in every definition; newer definitions are migrated forward (SPEC §5). */
export const SCHEMA_VERSION = 1;

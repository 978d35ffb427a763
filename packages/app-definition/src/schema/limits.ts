/** docs/product/app-definition.md limits, each enforced with a clear error where it applies. */
export const LIMITS = {
  screens: 50,
  componentsPerScreen: 200,
  collections: 20,
  fieldsPerCollection: 50,
  creatorRecords: 2_000,
  documentBytes: 5 * 1024 * 1024,
  /**
   * Yjs items in one document, its history included: the largest app the limits above allow is
   * about 65,000 items, so this leaves room for creator records and history.
   */
  documentItems: 150_000,
  titleLength: 60,
  descriptionLength: 500,
  tags: 5,
  tagLength: 24,
  actions: 100,
  aiActions: 50,
  /** Each one can notify every visitor who turns it on; a handful is what an app needs. */
  reminders: 10,
  stepsPerAction: 50,
  promptLength: 4_000,
  screenTitleLength: 60,
  screenIconLength: 16,
  /** A collection's, field's, action's or AI action's name. */
  nameLength: 60,
  /** A select field's choices, and the length of each. */
  choices: 50,
  choiceLength: 60,
  filterValueLength: 200,
  /** The records one relation field of one record links to. */
  relationLinks: 100,
  /** A formula field's expression. */
  formulaLength: 1_000,
  /** A step's template value (`{{record.field}}`, …). */
  templateLength: 2_000,
  /** A text component's markdown, and a text value entered in the editor. */
  textLength: 10_000,
} as const;

/**
 * Stored in every definition; newer definitions are migrated forward
 * (docs/product/app-definition.md).
 */
export const SCHEMA_VERSION = 1;

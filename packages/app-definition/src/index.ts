export { LIMITS, SCHEMA_VERSION } from './schema/limits';
export {
  THEME_PRESETS,
  themeSchema,
  themeTokensSchema,
  type Theme,
  type ThemePreset,
  type ThemeTokens,
} from './schema/theme';
export { PRESET_TOKENS, resolveThemeTokens, manifestColors } from './schema/theme-presets';
export { contrastRatio, relativeLuminance } from './schema/contrast';
export {
  appMetaSchema,
  appIconSchema,
  DEFAULT_APP_ICON,
  DEFAULT_CURRENCY,
  type AppMeta,
  type AppIcon,
} from './schema/meta';
export {
  appDefinitionSchema,
  screenSchema,
  componentSchema,
  collectionSchema,
  fieldSchema,
  actionSchema,
  stepSchema,
  aiActionSchema,
  COMPONENT_PROPS,
  FILTER_OPS,
  COMPONENT_TYPES,
  STEP_PROPS,
  STEP_TYPES,
  FIELD_TYPES,
  COMPUTED_FIELD_TYPES,
  TYPED_FIELD_TYPES,
  type AppDefinition,
  type Screen,
  type Component,
  type ComponentType,
  type FilterOp,
  type ComponentProps,
  type InvalidComponent,
  type Collection,
  type Field,
  type FieldType,
  type CreatorRecord,
  type Action,
  type Step,
  type StepType,
  type AiAction,
} from './schema/definition';
export {
  COLLECTION_SHARING,
  RECORD_RULES,
  isSharedCollection,
  recordRuleOf,
  type CollectionSharing,
  type CollectionRecordRule,
} from './schema/sharing';
export { TABLES, type Table } from './document/document';
export {
  hasDefinition,
  undoRoots,
  appListing,
  entityCount,
  libraryMap,
  type AppListing,
} from './document/layout';
export { LOCAL_EDIT, DefinitionError } from './schema/edit-rules';
export { safeUrlSchema } from './schema/safe-url';
export {
  createApp,
  setMeta,
  setTheme,
  addScreen,
  ensureScreen,
  setScreen,
  moveScreen,
  removeScreen,
  duplicateScreen,
  addComponent,
  setComponentProps,
  moveComponent,
  duplicateComponent,
  removeComponent,
  addCollection,
  renameCollection,
  setCollectionSharing,
  removeCollection,
  addField,
  setField,
  moveField,
  removeField,
  addRecord,
  setRecordValue,
  moveRecord,
  removeRecord,
  addAction,
  renameAction,
  removeAction,
  addStep,
  setStepProps,
  moveStep,
  removeStep,
  addAiAction,
  setAiAction,
  removeAiAction,
  type IdFactory,
} from './document/operations';
export {
  readDefinition,
  DefinitionReader,
  MISSING_SCREEN_ID,
  referenceTable,
  type ReferenceTable,
  type ReadDefinition,
  type ReadScreen,
  type ReadComponent,
} from './document/reader';
export { migrateDefinition } from './schema/migrations';
export { EXPORT_FORMAT, exportDefinition, parseImport, definitionProblems } from './portable/json';
export { writeDefinition } from './document/write-definition';
export {
  checkForPublish,
  rawDefinition,
  type PublishCheck,
  type PublishProblem,
} from './publish/publish-check';
export {
  APP_TEMPLATES,
  blankDefinition,
  habitTrackerShowcase,
  type AppTemplate,
  type EmojiIcon,
} from './templates/index';
export {
  coerceFieldValue,
  checkFieldValues,
  isIsoDate,
  parseDateTime,
  parseDuration,
  dateTimeInputText,
  durationInputText,
  VALUE_LIMITS,
  type FieldValue,
  type CoercedValue,
  type CheckedValues,
} from './schema/field-values';
export {
  renderTemplate,
  fillTemplate,
  templateBindings,
  bindingName,
  resolveExpression,
  hasTemplate,
  type TemplateRecord,
  type TemplateScope,
  type TemplateOptions,
} from './schema/template';
export {
  VISITOR_RECORD_LIMIT,
  counterValue,
  MISSING_RECORD_MESSAGE,
  OTHER_COLLECTION_MESSAGE,
  prepareVisitorRecord,
  prepareVisitorUpdate,
  recordLimitMessage,
  type VisitorRecord,
  type VisitorData,
  type RecordCollection,
} from './visitor-data/visitor-records';
export {
  createVisitorRecord,
  updateVisitorRecord,
  removeVisitorRecord,
  setCounter,
  readVisitorData,
  writeVisitorData,
  mergeVisitorData,
} from './visitor-data/visitor-data';
export { canChangeSpaceRecord } from './visitor-data/space-data';
export {
  AI_RECORD_SCHEMA_NAME,
  aiRecordSchema,
  aiRecordJsonSchema,
  checkAiRecord,
  checkAiTextForField,
  planAiRun,
  AI_RUN_SYSTEM_MESSAGE,
  type AiCheck,
  type AiRunPlan,
  type AiRunPlanResult,
} from './ai/ai-output';
export {
  BLUEPRINT_LIMITS,
  BLUEPRINT_SCREEN_KINDS,
  BLUEPRINT_COMPONENT_TYPES,
  blueprintSchema,
  blueprintJsonSchema,
  blueprintProblems,
  expandBlueprint,
  type Blueprint,
  type BlueprintCollection,
  type BlueprintScreen,
} from './ai/blueprint';
export {
  AI_EDITS_MAX,
  aiEditSchema,
  aiEditsSchema,
  aiEditsJsonSchema,
  aiEditsModelSchema,
  parseModelEdits,
  editableStructure,
  validateEdits,
  applyEdits,
  summarizeEdits,
  type AiEdit,
  type AiEdits,
  type EditProblem,
} from './ai/ai-edits';
export { applyDefinition } from './document/apply';
export {
  PIPIT_FILE_FORMAT,
  PIPIT_FILE_VERSION,
  PIPIT_FILE_EXTENSION,
  PIPIT_FILE_TYPE,
  PORTABLE_LIMITS,
  PORTABLE_IMAGE_TYPES,
  pipitManifestSchema,
  portableDefinition,
  writePipitFile,
  readPipitFile,
  uploadIdsIn,
  rewriteUploadUrls,
  withoutUploads,
  checkpointInWords,
  imageInWords,
  type PortableImageType,
  type PipitManifest,
  type PipitFile,
  type PipitFileApp,
  type PipitFileImage,
  type PipitFileVersion,
  type PipitFileCheckpoint,
  type PipitFileSpace,
  type PortableApp,
  type PortableSpace,
  type PortableExport,
} from './portable/pipit-file';
export { NOT_A_PIPIT_FILE, PipitFileError, looksLikeZip } from './portable/zip';
export { placeInDefinition, problemInWords, problemsInWords } from './portable/problem-words';
export {
  diffDefinitions,
  summarizeChanges,
  type ChangeGroup,
  type DefinitionChanges,
  type EntityChange,
} from './changes/changes';
export { chooseTheirs } from './changes/choose-theirs';
export { parseKnownDefinition, withoutInvalid } from './document/known-definition';
export {
  mergeDefinitions,
  type MergeConflict,
  type MergeResult,
  type PlacedEntity,
} from './changes/merge';

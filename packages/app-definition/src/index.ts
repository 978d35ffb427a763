export { LIMITS, SCHEMA_VERSION } from './limits';
export {
  THEME_PRESETS,
  themeSchema,
  themeTokensSchema,
  type Theme,
  type ThemePreset,
  type ThemeTokens,
} from './theme';
export { PRESET_TOKENS, resolveThemeTokens, manifestColors } from './theme-presets';
export { contrastRatio, relativeLuminance } from './contrast';
export { appMetaSchema, appIconSchema, DEFAULT_APP_ICON, type AppMeta, type AppIcon } from './meta';
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
} from './definition';
export {
  COLLECTION_SHARING,
  RECORD_RULES,
  isSharedCollection,
  recordRuleOf,
  type CollectionSharing,
  type CollectionRecordRule,
} from './sharing';
export { TABLES, type Table } from './document';
export {
  hasDefinition,
  undoRoots,
  appListing,
  entityCount,
  libraryMap,
  type AppListing,
} from './layout';
export { LOCAL_EDIT, DefinitionError } from './edit-rules';
export { safeUrlSchema } from './safe-url';
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
} from './operations';
export {
  readDefinition,
  DefinitionReader,
  MISSING_SCREEN_ID,
  referenceTable,
  type ReferenceTable,
  type ReadDefinition,
  type ReadScreen,
  type ReadComponent,
} from './reader';
export { migrateDefinition } from './migrations';
export { EXPORT_FORMAT, exportDefinition, parseImport, definitionProblems } from './json';
export { writeDefinition } from './write-definition';
export {
  checkForPublish,
  rawDefinition,
  type PublishCheck,
  type PublishProblem,
} from './publish-check';
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
  VALUE_LIMITS,
  type FieldValue,
  type CoercedValue,
  type CheckedValues,
} from './field-values';
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
} from './template';
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
} from './visitor-records';
export {
  createVisitorRecord,
  updateVisitorRecord,
  removeVisitorRecord,
  setCounter,
  readVisitorData,
  writeVisitorData,
  mergeVisitorData,
} from './visitor-data';
export { canChangeSpaceRecord } from './space-data';
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
} from './ai-output';
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
} from './blueprint';
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
} from './ai-edits';
export { applyDefinition } from './apply';
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
} from './pipit-file';
export { NOT_A_PIPIT_FILE, PipitFileError, looksLikeZip } from './zip';
export { placeInDefinition, problemInWords, problemsInWords } from './problem-words';
export {
  diffDefinitions,
  summarizeChanges,
  type ChangeGroup,
  type DefinitionChanges,
  type EntityChange,
} from './changes';
export { chooseTheirs } from './choose-theirs';
export { parseKnownDefinition, withoutInvalid } from './known-definition';
export { mergeDefinitions, type MergeConflict, type MergeResult, type PlacedEntity } from './merge';

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
  MISSING_SCREEN_ID,
  referenceTable,
  type ReferenceTable,
  type ReadDefinition,
  type ReadScreen,
  type ReadComponent,
} from './reader';
export { migrateDefinition } from './migrations';
export {
  EXPORT_FORMAT,
  exportDefinition,
  parseImport,
  writeDefinition,
  definitionProblems,
} from './json';
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
  resolveExpression,
  hasTemplate,
  type TemplateRecord,
  type TemplateScope,
  type TemplateOptions,
} from './template';
export {
  VISITOR_RECORD_LIMIT,
  prepareVisitorRecord,
  prepareVisitorUpdate,
  recordLimitMessage,
  createVisitorRecord,
  updateVisitorRecord,
  removeVisitorRecord,
  setCounter,
  readVisitorData,
  mergeVisitorData,
  type VisitorRecord,
  type VisitorData,
  type RecordCollection,
} from './visitor-data';

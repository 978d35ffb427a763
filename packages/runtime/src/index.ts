export { AppScreen, type AppScreenProps } from './app-screen';
export { AppRuntime, type AppRuntimeProps } from './app-runtime';
export { type PresenceMark } from './component-frame';
export {
  type RuntimeData,
  type RuntimeRecord,
  type RuntimeDataRecord,
  type RuntimeUser,
  type RunAi,
  type AiOutput,
  type AiRunAsk,
  type AiRunAnswer,
  type AiRunView,
  type PickedFile,
  type RuntimeFiles,
} from './runtime-data';
export {
  createMemoryDataStore,
  useMemoryRuntimeData,
  type MemoryDataStore,
  type MemoryWrite,
} from './memory-data';
export { landAiOutput, aiBindings, aiOutputText } from './ai-steps';
export {
  runAction,
  runAiAction,
  templateScope,
  ACTION_MESSAGES,
  type ActionEnv,
  type ActionInput,
  type ActionResult,
  type AiComponentOutcome,
  type ToastLink,
} from './actions';
export {
  navigationReducer,
  initialNavigation,
  currentEntry,
  tabScreens,
  MAX_STACK_DEPTH,
  type NavAction,
  type NavEntry,
  type NavState,
} from './navigation';
export { indexRecords, type RecordIndex, RecordIndexMemo } from './runtime-records';
export { formulaComputer, deviceFormulaEnv, type ComputeFormulas } from './formulas';
export { lazyModule, type LazyModule, useLazyModule } from './lazy-module';
export { lazyPart } from './lazy-part';
export { hasFileFields, preloadRuntimeParts } from './parts';
export { actionBlocked, blockedButtons, createBlocked } from './permissions';
export { initialFormInput, validateForm, type FormInput } from './form-state';
export { SafeMarkdown } from './safe-markdown';
export { safeHref } from './safe-url';
export { themeStyle } from './theme-style';
export {
  aggregateRecords,
  queryRecords,
  formatValue,
  type Aggregate,
  type ListFilter,
  type ListSort,
} from './records';

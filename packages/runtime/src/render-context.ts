import type { Collection, ReadDefinition } from '@pipit/app-definition';
import type { ActionInput, ActionResult, AiComponentOutcome, ToastLink } from './actions';
import type { FormPrefill } from './navigation';
import type {
  AiRunView,
  RuntimeData,
  RuntimeFiles,
  RuntimeRecord,
  RuntimeUser,
} from './runtime-data';
import type { TimerState } from './timer-state';

/** What every component renderer may read besides its own props. */
export interface RenderContext {
  definition: ReadDefinition;
  /** The editor preview's navigation (buttons whose action navigates, list items). */
  onNavigate?: ((screenId: string) => void) | undefined;
  /**
   * Present when the app runs (AppRuntime): components use the visitor's data and run actions.
   * Absent in the editor's preview, where they show the creator records and change nothing.
   */
  run?: RunContext | undefined;
}

/** The running app, as components see it. Every method reports its own problems as a toast. */
export interface RunContext {
  /** A collection's creator records (read-only) then the visitor's own. */
  recordsOf(collectionId: string | null): RuntimeRecord[];
  /** The record the current screen shows (opened from a list), or null. */
  current: RuntimeRecord | null;
  /** What the current screen's create forms start with (opened from a calendar's day), or null. */
  prefill: FormPrefill | null;
  data: RuntimeData;
  /** Photos and files on records; null where the host keeps none. */
  files: RuntimeFiles | null;
  user: RuntimeUser | null;
  /** Whether AI actions can run here (the server has a provider configured). */
  aiAvailable: boolean;
  /** Set when the visitor must sign in before AI runs: where to sign in. */
  aiSignIn: ToastLink | null;
  /** Runs kept on the device (queued offline), newest last, as the host reports them. */
  aiRuns: readonly AiRunView[];
  runAction(actionId: string | null, input?: ActionInput | null): Promise<ActionResult>;
  runAi(aiActionId: string | null): Promise<AiComponentOutcome>;
  openRecord(screenId: string, recordId: string): void;
  /** Opens a screen whose create forms start with `prefill` (a calendar's day on its add screen). */
  openForm(screenId: string, prefill: FormPrefill): void;
  /** Changes a visitor record; false after a toast saying why not. */
  update(
    collection: Collection,
    recordId: string,
    values: Readonly<Record<string, unknown>>,
  ): boolean;
  setCounter(counterId: string, value: number): void;
  toast(message: string): void;
  /** Timers keep counting while their screen is not shown: their state lives with the app. */
  timers: Map<string, TimerState>;
}

/** The records a data component shows: the running app's, or the creator records in the preview. */
export function recordsFor(
  context: RenderContext,
  collection: Collection,
): ReadonlyArray<Pick<RuntimeRecord, 'id' | 'values'> & { isOwn?: boolean }> {
  return context.run ? context.run.recordsOf(collection.id) : collection.records;
}

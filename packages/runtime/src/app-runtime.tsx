import { DefinitionError, type ReadDefinition } from '@pipit/app-definition';
import { memo, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { type ActionEnv, type ActionInput, runAction, runAiAction } from './actions';
import { AppScreen } from './app-screen';
import { focusElement, host } from './host';
import {
  currentEntry,
  initialNavigation,
  type NavAction,
  navigationReducer,
  tabScreens,
} from './navigation';
import type { RunContext } from './render-context';
import type { AiRunView, RunAi, RuntimeData, RuntimeFiles, RuntimeUser } from './runtime-data';
import { deviceFormulaEnv, formulaComputer, useFormulaEngine } from './formulas';
import { indexRecords, RecordIndexMemo } from './runtime-records';
import { useRelations } from './link-engine';
import { isAbsoluteUrl } from './safe-url';
import { TabBar } from './tab-bar';
import { themeStyle } from './theme-style';
import type { TimerState } from './timer-state';
import { ToastRegion, useToast } from './toast';

export interface AppRuntimeProps {
  definition: ReadDefinition;
  /** The visitor's records and counters (a Yjs document in the client, memory elsewhere). */
  data: RuntimeData;
  /** The theme's `mode: 'auto'` is resolved by the caller (prefers-color-scheme). */
  colorMode: 'light' | 'dark';
  /** The signed-in visitor, for `{{user.name}}`; null when anonymous. */
  user: RuntimeUser | null;
  /**
   * Opens an address from an openUrl step (already checked by safeHref). Default: a new window
   * without opener for http(s), this window for a path on the site.
   */
  onOpenUrl?: (href: string) => void;
  /** Runs an AI action on the server; absent → "AI is not configured on this server". */
  runAi?: RunAi;
  /**
   * Where a visitor who is not signed in signs in before AI runs (e.g. `/login?redirect=…`): AI
   * components and run-AI steps ask them to, with this link, instead of failing.
   */
  aiSignInHref?: string | null;
  /** Runs the host keeps on the device (queued offline), so AI components show how they went. */
  aiRuns?: readonly AiRunView[];
  /** Photos and files on records: where the host keeps them (none: the fields can't take any). */
  files?: RuntimeFiles | null;
  /** Where the app opens (the first screen when absent or unknown). */
  initialScreenId?: string;
  /**
   * `full`: the whole page (/apps/{id}/pwa), the tab bar and messages fixed to the viewport.
   * `preview`: inside another page, everything contained in the runtime's box. Either way the host
   * page has the h1 (the installed app's bar shows the app's name); each screen's title is an h2.
   */
  chrome?: 'full' | 'preview';
}

const NO_RUNS: readonly AiRunView[] = [];

function defaultOpenUrl(href: string): void {
  if (isAbsoluteUrl(href)) host.open?.(href, '_blank', 'noopener,noreferrer');
  else host.location?.assign(href);
}

function problemText(error: unknown): string {
  return error instanceof DefinitionError
    ? error.message
    : 'That change couldn’t be saved. Try again.';
}

/**
 * A whole running app (docs/product/app-definition.md): screens with a tab bar and a back stack
 * carrying the current record, the visitor's data, actions, toasts and focus management. It renders
 * each screen through AppScreen, as the editor's preview does, so both show the same thing.
 *
 * Memoized: a host re-renders for its own state (who is signed in, the sync note, the device's
 * storage) and the app, often the page's largest tree, renders again only when its own props
 * change — hosts keep them stable (each such render was a long task on a phone).
 */
export const AppRuntime = memo(function AppRuntime({
  definition,
  data,
  colorMode,
  user,
  onOpenUrl,
  runAi,
  aiSignInHref = null,
  aiRuns = NO_RUNS,
  files = null,
  initialScreenId,
  chrome = 'full',
}: AppRuntimeProps) {
  const [nav, dispatch] = useReducer(navigationReducer, undefined, () =>
    initialNavigation(definition, initialScreenId),
  );
  const [toast, showToast] = useToast();
  // Timers keep counting while their screen is not shown (their display is computed from this).
  const [timers] = useState(() => new Map<string, TimerState>());
  const headingRef = useRef<HTMLHeadingElement>(null);
  const engine = useFormulaEngine(definition);
  // Worked out again when the day changes, so "days since" and "is overdue" move on at midnight.
  const today = deviceFormulaEnv().today;
  const compute = useMemo(
    () => formulaComputer(engine, definition, deviceFormulaEnv()),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `today` is why it is worked out again
    [engine, definition, today],
  );
  const relations = useRelations(definition);
  const { people, me } = data;
  // What the last index worked out, kept for the next: a change of one record of thousands
  // works out only what it can reach.
  const [indexMemo] = useState(() => new RecordIndexMemo());
  const records = useMemo(
    () => indexRecords(definition, data.records, compute, relations, { people, me }, indexMemo),
    [definition, data.records, compute, relations, people, me, indexMemo],
  );
  const tabs = useMemo(() => tabScreens(definition), [definition]);
  const style = useMemo(
    () => themeStyle(definition.theme, colorMode),
    [definition.theme, colorMode],
  );
  const entry = currentEntry(nav, definition);
  const current = records.byId(entry.recordId);

  // After every navigation (never on first render), focus moves to the new screen's title, so
  // keyboard and screen-reader users start at the top of what changed.
  const entryKey = `${nav.stack.length}:${entry.screenId}:${entry.recordId ?? ''}`;
  const shownKey = useRef(entryKey);
  useEffect(() => {
    if (shownKey.current === entryKey) return;
    shownKey.current = entryKey;
    focusElement(headingRef.current);
  }, [entryKey]);

  const go = (action: NavAction) => dispatch(action);
  const env = (input?: ActionInput | null): ActionEnv => ({
    definition,
    data,
    record: current,
    input: input ?? null,
    user,
    navigate: (screenId, recordId) => go({ type: 'navigate', screenId, recordId }),
    back: () => go({ type: 'back' }),
    toast: showToast,
    openUrl: onOpenUrl ?? defaultOpenUrl,
    runAi,
    aiSignInHref,
  });
  const run: RunContext = {
    recordsOf: records.of,
    current,
    prefill: entry.prefill ?? null,
    data,
    files,
    user,
    aiAvailable: runAi !== undefined,
    aiSignIn: runAi && aiSignInHref ? { href: aiSignInHref, label: 'Sign in' } : null,
    aiRuns,
    runAction: (actionId, input) =>
      runAction(
        definition.actions.find((a) => a.id === actionId),
        env(input),
      ),
    runAi: (aiActionId) => runAiAction(aiActionId, env()),
    openRecord: (screenId, recordId) => go({ type: 'navigate', screenId, recordId }),
    openForm: (screenId, prefill) => go({ type: 'navigate', screenId, recordId: null, prefill }),
    update(collection, recordId, values) {
      try {
        data.update(collection, recordId, values);
        return true;
      } catch (error) {
        showToast(problemText(error));
        return false;
      }
    },
    setCounter(counterId, value) {
      try {
        data.setCounter(counterId, value);
      } catch (error) {
        showToast(problemText(error));
      }
    },
    toast: showToast,
    timers,
  };

  return (
    <div className={`rt-app rt-app-${chrome}`} style={style} data-color-mode={colorMode}>
      <div className="rt-app-main">
        <AppScreen
          key={`${entry.screenId}:${entry.recordId ?? ''}`}
          definition={definition}
          screenId={entry.screenId}
          colorMode={colorMode}
          run={run}
          onBack={nav.stack.length > 1 ? () => go({ type: 'back' }) : undefined}
          headingRef={headingRef}
        />
      </div>
      {tabs.length >= 2 && (
        <TabBar
          tabs={tabs}
          activeScreenId={nav.stack[0]?.screenId ?? null}
          onSelect={(screenId) => go({ type: 'tab', screenId })}
        />
      )}
      <ToastRegion toast={toast} />
    </div>
  );
});

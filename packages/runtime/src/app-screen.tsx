import type { ReadDefinition } from '@pipit/app-definition';
import { useMemo } from 'react';
import { deviceFormulaEnv, formulaComputer, useFormulaEngine } from './formulas';
import { withComputedCreatorRecords } from './runtime-records';
import { useRelations } from './link-engine';

const NO_COLLECTIONS = { collections: [] };
import type { Ref } from 'react';
import { ComponentErrorBoundary } from './component-error-boundary';
import { ComponentFrame, type PresenceMark } from './component-frame';
import { fillText } from './fill-text';
import { blockedButtons } from './permissions';
import { RenderComponent } from './render-component';
import type { RenderContext, RunContext } from './render-context';
import { themeStyle } from './theme-style';
import './runtime.css';

export interface AppScreenProps {
  definition: ReadDefinition;
  screenId: string;
  /** The theme's `mode: 'auto'` is resolved by the caller (it knows the device's preference). */
  colorMode: 'light' | 'dark';
  selectedComponentId?: string | null;
  /** When given, every component is selectable by click, Enter or Space. */
  onSelectComponent?: (componentId: string) => void;
  /** Other people's selections. */
  presence?: PresenceMark[];
  /** Called by buttons whose action navigates and by list items with a detail screen (preview). */
  onNavigate?: (screenId: string) => void;
  /** The running app (AppRuntime passes it): components use the visitor's data and run actions. */
  run?: RunContext;
  /** When given, the header has a Back button. */
  onBack?: () => void;
  /** The screen's title, focused after navigation (it has tabIndex -1 when this is given). */
  headingRef?: Ref<HTMLHeadingElement>;
}

/**
 * One screen of an app definition. Without `run` it is the editor's read-only preview (creator
 * records only, nothing saves); AppRuntime passes `run` to make it live. Every component is
 * isolated: an unreadable one or one that throws shows a placeholder and the rest still renders.
 */
export function AppScreen({
  definition,
  screenId,
  colorMode,
  selectedComponentId = null,
  onSelectComponent,
  presence = [],
  onNavigate,
  run,
  onBack,
  headingRef,
}: AppScreenProps) {
  const preview = run === undefined;
  // The preview works out its creator records' computed fields here; a running app did in
  // AppRuntime.
  const engine = useFormulaEngine(preview ? definition : NO_COLLECTIONS);
  const relations = useRelations(preview ? definition : NO_COLLECTIONS);
  const shown = useMemo(
    () =>
      preview
        ? withComputedCreatorRecords(
            definition,
            formulaComputer(engine, definition, deviceFormulaEnv()),
            relations,
          )
        : definition,
    [preview, engine, relations, definition],
  );
  const screen = definition.screens.find((s) => s.id === screenId);
  const context: RenderContext = { definition: shown, onNavigate, run };
  return (
    <div
      className="rt-screen"
      data-screen={screenId}
      style={themeStyle(definition.theme, colorMode)}
      data-color-mode={colorMode}
    >
      <div className="rt-header">
        {onBack && (
          <button type="button" className="rt-back" onClick={onBack}>
            <span aria-hidden="true">‹ </span>Back
          </button>
        )}
        {screen && (
          <span className="rt-header-icon" aria-hidden="true">
            {screen.icon}
          </span>
        )}
        <h2
          className="rt-header-title"
          dir="auto"
          ref={headingRef}
          tabIndex={headingRef ? -1 : undefined}
        >
          {screen ? fillText(context, screen.title) : 'Screen not found'}
        </h2>
      </div>
      <div className="rt-body">
        {!screen && <p className="rt-card rt-muted">This screen no longer exists.</p>}
        {screen?.components.length === 0 && (
          <p className="rt-card rt-muted rt-empty">This screen is empty.</p>
        )}
        {run && screen
          ? blockedButtons(definition, run.data, run.current, screen.components).map((why) => (
              <p key={why} className="rt-card rt-muted rt-blocked" role="note">
                {why}
              </p>
            ))
          : null}
        {screen?.components.map((component) => (
          <ComponentFrame
            key={component.id}
            componentId={component.id}
            type={component.type === 'invalid' ? component.originalType : component.type}
            selected={component.id === selectedComponentId}
            onSelect={onSelectComponent}
            presence={presence.filter((p) => p.componentId === component.id)}
          >
            <ComponentErrorBoundary resetKey={component}>
              <RenderComponent component={component} context={context} />
            </ComponentErrorBoundary>
          </ComponentFrame>
        ))}
      </div>
    </div>
  );
}

import type { ReadDefinition } from '@pipit/app-definition';
import { ComponentErrorBoundary } from './component-error-boundary';
import { ComponentFrame, type PresenceMark } from './component-frame';
import { RenderComponent } from './render-component';
import type { RenderContext } from './render-context';
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
  /** Called by buttons whose action navigates and by list items with a detail screen. */
  onNavigate?: (screenId: string) => void;
}

/**
 * One screen of an app definition, rendered read-only from the definition alone (its creator
 * records; visitor data comes later). Every component is isolated: an unreadable one or one that
 * throws shows a placeholder and the rest of the screen still renders.
 */
export function AppScreen({
  definition,
  screenId,
  colorMode,
  selectedComponentId = null,
  onSelectComponent,
  presence = [],
  onNavigate,
}: AppScreenProps) {
  const screen = definition.screens.find((s) => s.id === screenId);
  const context: RenderContext = { definition, onNavigate };
  return (
    <div
      className="rt-screen"
      style={themeStyle(definition.theme, colorMode)}
      data-color-mode={colorMode}
    >
      <div className="rt-header">
        {screen && (
          <span className="rt-header-icon" aria-hidden="true">
            {screen.icon}
          </span>
        )}
        <h2 className="rt-header-title">{screen ? screen.title : 'Screen not found'}</h2>
      </div>
      <div className="rt-body">
        {!screen && <p className="rt-card rt-muted">This screen no longer exists.</p>}
        {screen?.components.length === 0 && (
          <p className="rt-card rt-muted rt-empty">This screen is empty.</p>
        )}
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

import {
  COMPONENT_PROPS,
  LIMITS,
  MISSING_SCREEN_ID,
  removeComponent,
  setComponentProps,
  setScreen,
} from '@pipit/app-definition';
import { Button } from '../../../ui/button';
import { Notice } from '../../../ui/notice';
import { DraftText } from '../common/draft-fields';
import { useEditor } from '../common/editor-context';
import { COMPONENT_LABELS } from '../common/labels';
import { PropFields } from './prop-fields';
import { RecentChanges } from './recent-changes';
import type { PropSchema } from './prop-schema';
import { screenTitleProblem } from '../common/validation';

/** The selected component's properties, or the screen's when no component is selected. */
export function InspectorPanel() {
  const { component } = useEditor();
  return component ? <ComponentInspector /> : <ScreenInspector />;
}

function ComponentInspector() {
  const { component, screen, handle, readOnly, selectComponent, duplicateComponent } = useEditor();
  if (!component) return null;
  if (component.type === 'invalid') {
    return (
      <div className="inspector">
        <h2 className="editor-section__title">Unreadable component</h2>
        <Notice tone="warning" live="off">
          This component (“{component.originalType}”) can’t be read: {component.problem} It shows as
          a placeholder in the app. Delete it, or open the app in a newer version of Pipit.
        </Notice>
        {readOnly ? null : (
          <Button
            variant="danger"
            size="small"
            onClick={() => {
              handle.edit(removeComponent, component.id);
              selectComponent(null);
            }}
          >
            Delete component
          </Button>
        )}
      </div>
    );
  }
  const shape = COMPONENT_PROPS[component.type].shape as unknown as Record<string, PropSchema>;
  const label = COMPONENT_LABELS[component.type].name;
  return (
    <div className="inspector">
      <div className="editor-section__header">
        <h2 className="editor-section__title">
          {label}{' '}
          <span className="editor-muted">
            on <bdi>{screen.title}</bdi>
          </span>
        </h2>
        {readOnly ? null : (
          <span className="row">
            <Button
              size="small"
              variant="secondary"
              onClick={() => duplicateComponent(component.id)}
            >
              Duplicate
            </Button>
            <Button size="small" variant="ghost" onClick={() => selectComponent(null)}>
              Done
            </Button>
          </span>
        )}
      </div>
      <PropFields
        // A fresh form per component: drafts and errors belong to the one being edited.
        key={component.id}
        shape={shape}
        values={component.props as Record<string, unknown>}
        onPatch={(patch) => handle.edit(setComponentProps, component.id, patch)}
      />
      <RecentChanges entity="component" id={component.id} version={component.props} />
    </div>
  );
}

function ScreenInspector() {
  const { screen, handle, readOnly } = useEditor();
  if (screen.id === MISSING_SCREEN_ID) {
    return <p className="editor-muted">Add a screen to start building.</p>;
  }
  return (
    <div className="inspector" key={screen.id}>
      <h2 className="editor-section__title">
        Screen: <bdi>{screen.title}</bdi>
      </h2>
      <p className="editor-muted">Select a component in the list or in the preview to change it.</p>
      <DraftText
        label="Screen title"
        value={screen.title}
        disabled={readOnly}
        validate={screenTitleProblem}
        onCommit={(title) => handle.edit(setScreen, screen.id, { title })}
      />
      <DraftText
        label="Screen icon"
        hint="An emoji shown beside the title."
        value={screen.icon}
        disabled={readOnly}
        validate={(v) =>
          v.trim() === ''
            ? 'Choose an icon (an emoji).'
            : v.length > LIMITS.screenIconLength
              ? 'Use one emoji (or a few characters).'
              : null
        }
        onCommit={(icon) => handle.edit(setScreen, screen.id, { icon })}
      />
      <RecentChanges entity="screen" id={screen.id} version={`${screen.title}\n${screen.icon}`} />
    </div>
  );
}

import { duplicateComponent, moveComponent, type ReadDefinition } from '@pipit/app-definition';
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { AppDocumentHandle, AppDocumentView } from '../../sync/app-document/app-document';
import { SYNC_ERROR_MESSAGES } from '../../sync/core/sync-state';
import { reportError } from '../../platform/monitoring/error-reporting';
import { Button } from '../../ui/button';
import { Notice } from '../../ui/notice';
import { ActionsPanel } from './inspector/actions-panel';
import { CollectionsPanel } from './structure/collections-panel';
import { ComponentTree } from './structure/component-tree';
import { downloadText, exportFileName } from './history/download';
import { editProblem } from './edit-problem';
import { ConfirmDialog, type ConfirmRequest, ShortcutsDialog } from './common/editor-dialog';
import {
  EditorContext,
  type EditorContextValue,
  type EditorHandle,
  newId,
  type PropertiesTab,
} from './common/editor-context';
import { EditorTopBar } from './editor-top-bar';
import { InspectorPanel } from './inspector/inspector-panel';
import { PreviewPanel } from './preview-panel';
import { RemindersPanel } from './reminders/reminders-panel';
import { ScreensPanel } from './structure/screens-panel';
import { SettingsPanel } from './inspector/settings-panel';
import { Tabs } from './tabs';
import { ThemePanel } from './inspector/theme-panel';
import { groupsTyping } from './common/typing';
import { useEditorShortcuts } from './use-editor-shortcuts';
import { useMediaQuery } from '../../ui/use-media-query';
import './editor-panels.css';

const PROPERTIES_TABS: ReadonlyArray<{ value: PropertiesTab; label: string }> = [
  { value: 'inspector', label: 'Inspector' },
  { value: 'collections', label: 'Collections' },
  { value: 'actions', label: 'Actions' },
  { value: 'reminders', label: 'Reminders' },
  { value: 'theme', label: 'Theme' },
  { value: 'settings', label: 'Settings' },
];

type LayoutTab = 'structure' | 'preview' | 'properties';

/** Three panels from 75rem (1200 px), a side panel beside the preview from 45rem, else one. */
function useLayout(): 'wide' | 'medium' | 'narrow' {
  const wide = useMediaQuery('(min-width: 75rem)');
  const medium = useMediaQuery('(min-width: 45rem)');
  return wide ? 'wide' : medium ? 'medium' : 'narrow';
}

interface EditorWorkspaceProps {
  /** The app's id on the server; null for the demo (this device only). */
  syncedAppId: string | null;
  view: AppDocumentView;
  definition: ReadDefinition;
  handle: AppDocumentHandle;
  backTo?: { to: string; label: string } | undefined;
  banner?: ReactNode;
  tools?: ReactNode;
}

/** The editor on a loaded app: top bar, structure, preview and properties. */
export function EditorWorkspace({
  syncedAppId,
  view,
  definition,
  handle,
  backTo,
  banner,
  tools,
}: EditorWorkspaceProps) {
  const layout = useLayout();
  const [layoutTab, setLayoutTab] = useState<LayoutTab>('structure');
  const [showShortcuts, setShowShortcuts] = useState(false);
  const { editorHandle, problem, setProblem } = useEditHandle(handle);
  const { context, confirmRequest, setConfirmRequest } = useEditorContextValue(
    syncedAppId,
    view,
    definition,
    handle,
    editorHandle,
    setLayoutTab,
  );
  const { screen, component, readOnly } = context;

  useEditorShortcuts({
    undo: () => handle.undo(),
    redo: () => handle.redo(),
    duplicate: () => {
      if (!component || readOnly) return false;
      context.duplicateComponent(component.id);
      return true;
    },
    move: (delta) => {
      if (!component || readOnly) return false;
      const index = screen.components.findIndex((c) => c.id === component.id) + delta;
      if (index >= 0 && index < screen.components.length) {
        editorHandle.edit(moveComponent, component.id, index);
      }
      return true;
    },
    help: () => setShowShortcuts(true),
  });

  return (
    <EditorContext.Provider value={context}>
      <div className={`app-editor app-editor--${layout}`}>
        <EditorTopBar
          view={view}
          title={definition.meta.title}
          icon={definition.meta.icon}
          backTo={backTo}
          tools={tools}
          onUndo={() => handle.undo()}
          onRedo={() => handle.redo()}
          onShortcuts={() => setShowShortcuts(true)}
          onExport={() => downloadText(exportFileName(definition.meta.title), handle.exportJson())}
        />
        <EditorNotices
          view={view}
          handle={handle}
          banner={banner}
          problem={problem}
          onDismissProblem={() => setProblem(null)}
        />
        <div className="app-editor__workspace">
          <EditorPanels
            layout={layout}
            layoutTab={layoutTab}
            onLayoutTab={setLayoutTab}
            propertiesTab={context.propertiesTab}
            onPropertiesTab={context.setPropertiesTab}
          />
        </div>
        {confirmRequest ? (
          <ConfirmDialog request={confirmRequest} onClose={() => setConfirmRequest(null)} />
        ) : null}
        {showShortcuts ? <ShortcutsDialog onClose={() => setShowShortcuts(false)} /> : null}
      </div>
    </EditorContext.Provider>
  );
}

/**
 * What every panel reads through `EditorContext`: the app, the handle, the selected screen and
 * component, the properties tab; and the confirmation a panel asks for, shown by the workspace.
 */
function useEditorContextValue(
  syncedAppId: string | null,
  view: AppDocumentView,
  definition: ReadDefinition,
  handle: AppDocumentHandle,
  editorHandle: EditorHandle,
  setLayoutTab: (tab: LayoutTab) => void,
) {
  const [screenId, setScreenId] = useState<string | null>(null);
  const [componentId, setComponentId] = useState<string | null>(null);
  const [propertiesTab, setPropertiesTab] = useState<PropertiesTab>('inspector');
  const [reminderId, setReminderId] = useState<string | null>(null);
  const [confirmRequest, setConfirmRequest] = useState<ConfirmRequest | null>(null);
  const readOnly = view.readOnly;

  // The selection falls back to what exists (a collaborator or an undo may remove it).
  const screen = definition.screens.find((s) => s.id === screenId) ?? definition.screens[0]!;
  const component = screen.components.find((c) => c.id === componentId) ?? null;

  // Shared with collaborators when it changes (not on every edit of the selected component).
  const selectedId = component?.id ?? null;
  useEffect(() => {
    handle.setSelection(
      selectedId
        ? { kind: 'component', id: selectedId, screenId: screen.id }
        : { kind: 'screen', id: screen.id },
    );
  }, [handle, screen.id, selectedId]);

  const selectComponent = useCallback((id: string | null) => {
    setComponentId(id);
    if (id) setPropertiesTab('inspector');
  }, []);

  const duplicate = useCallback(
    (id: string) => {
      const copyId = editorHandle.edit(duplicateComponent, newId, id);
      if (copyId) selectComponent(copyId);
    },
    [editorHandle, selectComponent],
  );

  // Opening a reminder from elsewhere (a publish problem) shows it, whichever panel was in view.
  const openReminder = useCallback(
    (id: string | null) => {
      setReminderId(id);
      if (id === null) return;
      setPropertiesTab('reminders');
      setLayoutTab('properties');
    },
    [setLayoutTab],
  );

  const context = useMemo<EditorContextValue>(
    () => ({
      definition,
      syncedAppId,
      handle: editorHandle,
      readOnly,
      peers: view.peers,
      screen,
      component,
      selectScreen: (id) => {
        setScreenId(id);
        setComponentId(null);
      },
      selectComponent,
      duplicateComponent: duplicate,
      propertiesTab,
      setPropertiesTab,
      reminderId,
      openReminder,
      confirm: setConfirmRequest,
    }),
    [
      definition,
      syncedAppId,
      editorHandle,
      readOnly,
      view.peers,
      screen,
      component,
      selectComponent,
      duplicate,
      propertiesTab,
      reminderId,
      openReminder,
    ],
  );
  return { context, confirmRequest, setConfirmRequest };
}

/** The document's handle for the panels: an edit clears the last problem, or says why it failed. */
function useEditHandle(handle: AppDocumentHandle) {
  const [problem, setProblem] = useState<string | null>(null);
  // Keystrokes in one text field (and a colour picker's drag) make one undo step; anything else
  // is a step of its own, however quickly it follows.
  const typingIn = useRef<Element | null>(null);
  const editorHandle = useMemo<EditorHandle>(
    () => ({
      ...handle,
      edit: (operation, ...args) => {
        const active = groupsTyping(document.activeElement) ? document.activeElement : null;
        if (!active || active !== typingIn.current) handle.stopCapturing();
        typingIn.current = active;
        try {
          const result = handle.run(operation, ...args);
          setProblem(null);
          return result;
        } catch (error) {
          const problem = editProblem(error, window.location.host);
          if (problem.isBug) {
            console.error(error);
            reportError(error, { handled: true });
          }
          setProblem(problem.message);
          return undefined;
        }
      },
    }),
    [handle],
  );
  return { editorHandle, problem, setProblem };
}

/** Above the panels: the page's banner, read-only, refused changes, sync errors, the last problem. */
function EditorNotices({
  view,
  handle,
  banner,
  problem,
  onDismissProblem,
}: {
  view: AppDocumentView;
  handle: AppDocumentHandle;
  banner: ReactNode;
  problem: string | null;
  onDismissProblem(): void;
}) {
  return (
    <div className="app-editor__notices">
      {banner}
      {view.readOnly ? (
        <Notice tone="info" live="off">
          You can view this app but not edit it.
        </Notice>
      ) : null}
      {view.refusedChanges > 0 ? (
        <div className="editor-problem">
          <Notice tone="warning" title="Your changes here weren’t saved" live="polite">
            You can only view this app now, so the server could not take{' '}
            {view.refusedChanges === 1 ? 'a change' : `${view.refusedChanges} changes`} made on this
            device. {view.refusedChanges === 1 ? 'It was' : 'They were'} removed from this device;
            you see the app as it is on the server. Ask its owner to make you an editor again to
            change it.
          </Notice>
          <Button size="small" variant="ghost" onClick={() => handle.dismissRefusedChanges()}>
            Dismiss
          </Button>
        </div>
      ) : null}
      {view.sync.kind === 'error' ? (
        <Notice tone="danger" title="Changes aren’t syncing" live="off">
          {SYNC_ERROR_MESSAGES[view.sync.why]}
        </Notice>
      ) : null}
      {problem ? (
        <div className="editor-problem">
          <Notice tone="danger" live="alert">
            {problem}
          </Notice>
          <Button size="small" variant="ghost" onClick={onDismissProblem}>
            Dismiss
          </Button>
        </div>
      ) : null}
    </div>
  );
}

/** Structure, preview and properties, side by side or behind tabs as the window allows. */
function EditorPanels({
  layout,
  layoutTab,
  onLayoutTab,
  propertiesTab,
  onPropertiesTab,
}: {
  layout: 'wide' | 'medium' | 'narrow';
  layoutTab: LayoutTab;
  onLayoutTab(tab: LayoutTab): void;
  propertiesTab: PropertiesTab;
  onPropertiesTab(tab: PropertiesTab): void;
}) {
  const structure = (
    <div className="editor-panel editor-panel--structure">
      <ScreensPanel />
      <ComponentTree />
    </div>
  );
  const preview = (
    <div className="editor-panel editor-panel--preview">
      <PreviewPanel
        fitHeight={layout !== 'narrow'}
        // Beside the preview, a click on a component shows its properties.
        onComponentClick={layout === 'medium' ? () => onLayoutTab('properties') : undefined}
      />
    </div>
  );
  const properties = (
    <div className="editor-panel editor-panel--properties">
      <Tabs<PropertiesTab>
        label="Edit"
        tabs={PROPERTIES_TABS}
        value={propertiesTab}
        onChange={onPropertiesTab}
      >
        {propertiesTab === 'inspector' ? <InspectorPanel /> : null}
        {propertiesTab === 'collections' ? <CollectionsPanel /> : null}
        {propertiesTab === 'actions' ? <ActionsPanel /> : null}
        {propertiesTab === 'reminders' ? <RemindersPanel /> : null}
        {propertiesTab === 'theme' ? <ThemePanel /> : null}
        {propertiesTab === 'settings' ? <SettingsPanel /> : null}
      </Tabs>
    </div>
  );

  if (layout === 'wide') {
    return (
      <>
        {structure}
        {preview}
        {properties}
      </>
    );
  }
  if (layout === 'medium') {
    const side = layoutTab === 'properties' ? 'properties' : 'structure';
    return (
      <>
        <Tabs<LayoutTab>
          label="Panels"
          variant="bar"
          className="editor-side"
          tabs={[
            { value: 'structure', label: 'Structure' },
            { value: 'properties', label: 'Properties' },
          ]}
          value={side}
          onChange={onLayoutTab}
        >
          {side === 'structure' ? structure : properties}
        </Tabs>
        {preview}
      </>
    );
  }
  return (
    <Tabs<LayoutTab>
      label="Panels"
      variant="bar"
      className="editor-single"
      tabs={[
        { value: 'structure', label: 'Structure' },
        { value: 'preview', label: 'Preview' },
        { value: 'properties', label: 'Properties' },
      ]}
      value={layoutTab}
      onChange={onLayoutTab}
    >
      {layoutTab === 'structure' ? structure : layoutTab === 'preview' ? preview : properties}
    </Tabs>
  );
}

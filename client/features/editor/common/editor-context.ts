import type { ReadComponent, ReadDefinition, ReadScreen } from '@pipit/app-definition';
import { createId } from '@pipit/protocol';
import { createContext, useContext } from 'react';
import type { AppDocumentHandle, Peer } from '../../../sync/app-document/app-document';

/** Right-hand panel tabs. */
export type PropertiesTab =
  'inspector' | 'collections' | 'actions' | 'reminders' | 'theme' | 'settings';

/** The document an operation from @pipit/app-definition runs on (what `run` hands it). */
type OperationDoc = Parameters<Parameters<AppDocumentHandle['run']>[0]>[0];

/** The app document as the editor edits it. */
export interface EditorHandle extends AppDocumentHandle {
  /**
   * Runs a typed operation from @pipit/app-definition as an edit; a refused one (a
   * `DefinitionError`: a limit, something a collaborator just deleted) is shown to the person and
   * returns undefined. Nothing changed in that case.
   */
  edit<A extends unknown[], R>(
    operation: (doc: OperationDoc, ...args: A) => R,
    ...args: A
  ): R | undefined;
}

export interface EditorContextValue {
  definition: ReadDefinition;
  /** The app's id on the server, whose history says who changed what; null for the demo. */
  syncedAppId: string | null;
  handle: EditorHandle;
  readOnly: boolean;
  peers: Peer[];
  /** The screen shown in the tree and the preview (always one of the definition's). */
  screen: ReadScreen;
  component: ReadComponent | null;
  selectScreen(screenId: string): void;
  selectComponent(componentId: string | null): void;
  /** Duplicates a component (right after it) and selects the copy. */
  duplicateComponent(componentId: string): void;
  propertiesTab: PropertiesTab;
  setPropertiesTab(tab: PropertiesTab): void;
  /** The reminder open in the Reminders panel, if any. */
  reminderId: string | null;
  /** Opens a reminder in the Reminders panel, and shows the panel; null closes it. */
  openReminder(reminderId: string | null): void;
  /** Asks before something is deleted; `onConfirm` runs only if the person agrees. */
  confirm(request: { title: string; body: string; confirmLabel: string; onConfirm(): void }): void;
}

export const EditorContext = createContext<EditorContextValue | null>(null);

export function useEditor(): EditorContextValue {
  const value = useContext(EditorContext);
  if (!value) throw new Error('useEditor is used outside the editor.');
  return value;
}

/** New entity ids: random, so ids made on different devices never collide. */
export const newId = (): string => createId();

/** The editor's context where there may be none (a notice shown before the app has loaded too). */
export function useEditorIfReady(): EditorContextValue | null {
  return useContext(EditorContext);
}

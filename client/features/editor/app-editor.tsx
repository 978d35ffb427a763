import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import {
  type AppDocumentView,
  type Person,
  useAppDocument,
} from '../../sync/app-document/app-document';
import type { DocumentScope } from '../../sync/core/document-names';
import { forgetLocalCopy } from '../../sync/app-document/local-apps';
import { SYNC_ERROR_MESSAGES } from '../../sync/core/sync-state';
import { Button } from '../../ui/button';
import { Loading } from '../../ui/loading';
import { EditorWorkspace } from './editor-workspace';
import './app-editor.css';

export interface AppEditorProps {
  appId: string;
  /** Whose copy: an account's (synced when `connect`) or the demo's (this device only). */
  scope: DocumentScope;
  /** Who I am to collaborators (presence); null shows no presence of mine. */
  person: Person | null;
  connect: boolean;
  /** A link back to where the person came from, shown before the title. */
  backTo?: { to: string; label: string };
  /** Shown above the workspace, e.g. the demo's "this app lives only in this browser". */
  banner?: ReactNode;
  /** More tools for the top bar (the synced editor's Share button). */
  tools?: ReactNode;
  /** A draft of the app (docs/product/drafts.md): its document is edited instead of the app's. */
  draftId?: string | null;
}

/**
 * The visual editor of one app (docs/product/app-definition.md): screens and components, live
 * preview, properties, collections, actions, theme and settings, with per-person undo and
 * collaborators' presence. Works offline on this device's copy and syncs when `connect` is set.
 */
export function AppEditor({
  appId,
  scope,
  person,
  connect,
  backTo,
  banner,
  tools,
  draftId = null,
}: AppEditorProps) {
  const { view, handle } = useAppDocument(appId, { scope, person, connect, draftId });
  const isDemo = scope.kind === 'demo';
  if (view.phase !== 'ready' || !view.definition) {
    return (
      <EditorState
        view={view}
        backTo={backTo}
        banner={banner}
        isDraft={draftId !== null}
        onStartOver={isDemo ? () => void forgetLocalCopy('demo', appId) : undefined}
      />
    );
  }
  return (
    <EditorWorkspace
      // A different app (or draft) starts with a fresh selection and fresh panels.
      key={draftId ?? appId}
      // Who changed what is the app's, not a draft's: a draft's changes are credited when merged.
      syncedAppId={isDemo || draftId ? null : appId}
      view={view}
      definition={view.definition}
      handle={handle}
      backTo={backTo}
      banner={banner}
      tools={tools}
    />
  );
}

/** Everything before the app can be shown: each says what happens next or what to do. */
function EditorState({
  view,
  backTo,
  banner,
  isDraft,
  onStartOver,
}: {
  view: AppDocumentView;
  /** A draft of an app: one merged or deleted is said so (its bar says what to do). */
  isDraft: boolean;
  backTo?: { to: string; label: string } | undefined;
  banner?: ReactNode;
  /** The demo only: its app's storage was cleared, so it starts a new one. */
  onStartOver?: (() => void) | undefined;
}) {
  const back = backTo ? (
    // A caller's destination (studio, app page): not a route literal the router can check.
    <Link to={backTo.to as '/'}>{backTo.label}</Link>
  ) : null;
  let title: string;
  let body: ReactNode;
  if (view.phase === 'loading') {
    title = 'Opening the app';
    body = <Loading label="Opening the app on this device…" />;
  } else if (view.phase === 'waiting') {
    title = 'Fetching this app from the server…';
    body = (
      <>
        <Loading label="Fetching this app from the server…" />
        <p className="editor-muted">
          It opens here as soon as it arrives, and stays on this device for offline use.
        </p>
      </>
    );
  } else if (view.sync.kind === 'error') {
    const gone = isDraft && (view.sync.why === 'deleted' || view.sync.why === 'not-registered');
    title = isDraft ? 'This draft can’t be opened' : 'This app can’t be opened';
    body = (
      <>
        <p>
          {gone
            ? 'This draft was merged into the app or deleted, so there is nothing of it to open.'
            : SYNC_ERROR_MESSAGES[view.sync.why]}
        </p>
        <div className="row">
          <Button variant="secondary" onClick={() => window.location.reload()}>
            Try again
          </Button>
          {back}
        </div>
      </>
    );
  } else if (onStartOver) {
    title = 'This browser no longer has the demo app';
    body = (
      <>
        <p>Its storage was cleared (by the browser or a privacy setting). Start a new one.</p>
        <Button onClick={onStartOver}>Start a new demo app</Button>
      </>
    );
  } else {
    title = "This app isn't on this device yet.";
    body = (
      <>
        <p>Connect to the internet to open it. It stays on this device from then on.</p>
        {back}
      </>
    );
  }
  return (
    <div className="app-editor app-editor--state">
      {banner ? <div className="app-editor__notices">{banner}</div> : null}
      <div className="editor-state">
        <h1 className={`editor-state__title${view.phase === 'loading' ? ' visually-hidden' : ''}`}>
          {title}
        </h1>
        {body}
      </div>
    </div>
  );
}

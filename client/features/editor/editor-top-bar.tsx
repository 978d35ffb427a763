import type { AppIcon as AppIconValue } from '@pipit/protocol';
import { Link, useParams, useSearch } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { AppDocumentView } from '../../sync/app-document/app-document';
import { AppIcon } from '../../ui/app-icon';
import { Button } from '../../ui/button';
import { PresenceAvatars } from './common/presence';
import { PublishButton } from './publish/publish-button';
import { describeSync } from '../../sync/core/sync-status';
import { SyncBadge } from '../../ui/sync-badge';
import { Icon } from './common/icons';

interface EditorTopBarProps {
  view: AppDocumentView;
  title: string;
  icon: AppIconValue;
  onUndo(): void;
  onRedo(): void;
  onExport(): void;
  onShortcuts(): void;
  backTo?: { to: string; label: string } | undefined;
  /** More tools from the host page (the synced editor's Share button). */
  tools?: ReactNode;
}

const isMac = () => /Mac|iPhone|iPad/.test(navigator.platform);

/** The app's name (the page's h1), its sync state, undo/redo, who else is here, export. */
export function EditorTopBar({
  view,
  title,
  icon,
  onUndo,
  onRedo,
  onExport,
  onShortcuts,
  backTo,
  tools,
}: EditorTopBarProps) {
  const mod = isMac() ? '⌘' : 'Ctrl+';
  // A synced app's editor (/apps/{id}/edit) can publish; the demo's local app (/demo) cannot,
  // nor a draft of an app (`?draft=`: it is merged into the app first, docs/product/drafts.md).
  const appId = useParams({ strict: false }).id;
  const { draft } = useSearch({ strict: false });
  return (
    <div className="editor-top-bar">
      <div className="editor-top-bar__title">
        {backTo ? (
          // A caller's destination (studio, app page): not a route literal the router can check.
          <Link
            to={backTo.to as '/'}
            className="editor-top-bar__back"
            // A draft's way back to its app is not the page it is on (only the search differs).
            activeOptions={{ includeSearch: true }}
          >
            <span aria-hidden="true">←</span> {backTo.label}
          </Link>
        ) : null}
        <h1 className="editor-top-bar__heading">
          <AppIcon icon={icon} size={28} />
          <span dir="auto">{title}</span>
        </h1>
        <SyncBadge {...describeSync(view.sync)} />
      </div>
      <div className="editor-top-bar__tools">
        <PresenceAvatars peers={view.peers} />
        {appId && !draft ? <PublishButton appId={appId} sync={view.sync} /> : null}
        {tools}
        {view.readOnly ? null : (
          <div className="editor-top-bar__group" role="group" aria-label="History">
            <Button
              variant="secondary"
              size="small"
              onClick={onUndo}
              disabled={!view.canUndo}
              title={`Undo (${mod}Z)`}
            >
              <Icon name="undo" /> Undo
            </Button>
            <Button
              variant="secondary"
              size="small"
              onClick={onRedo}
              disabled={!view.canRedo}
              title={`Redo (${mod}Shift+Z)`}
            >
              <Icon name="redo" /> Redo
            </Button>
          </div>
        )}
        <Button variant="secondary" size="small" onClick={onExport}>
          <Icon name="download" /> Export JSON
        </Button>
        <Button
          variant="ghost"
          size="small"
          onClick={onShortcuts}
          aria-label="Keyboard shortcuts"
          title="Keyboard shortcuts (?)"
        >
          <Icon name="keyboard" />
        </Button>
      </div>
    </div>
  );
}

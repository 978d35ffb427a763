import { type ReactNode, useId } from 'react';
import { Button } from '../../../ui/button';
import { useModal } from '../../../ui/use-modal';

interface EditorDialogProps {
  title: string;
  children: ReactNode;
  onClose(): void;
  /** Buttons at the bottom; a Close button when absent. */
  actions?: ReactNode;
  /** A wide dialog (the history: a list beside a preview). */
  wide?: boolean;
}

/**
 * A modal dialog (the native `<dialog>`: focus is trapped, Escape closes, focus returns to what
 * opened it). Rendered only while open.
 */
export function EditorDialog({ title, children, onClose, actions, wide }: EditorDialogProps) {
  const ref = useModal();
  const titleId = useId();
  return (
    <dialog
      ref={ref}
      className={wide ? 'editor-dialog editor-dialog--wide' : 'editor-dialog'}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 className="editor-dialog__title" id={titleId}>
        {title}
      </h2>
      <div className="editor-dialog__body">{children}</div>
      <div className="editor-dialog__actions">
        {actions ?? (
          <Button variant="secondary" onClick={onClose} autoFocus>
            Close
          </Button>
        )}
      </div>
    </dialog>
  );
}

export interface ConfirmRequest {
  title: string;
  body: string;
  confirmLabel: string;
  onConfirm(): void;
}

export function ConfirmDialog({ request, onClose }: { request: ConfirmRequest; onClose(): void }) {
  return (
    <EditorDialog
      title={request.title}
      onClose={onClose}
      actions={
        <>
          <Button variant="secondary" onClick={onClose} autoFocus>
            Cancel
          </Button>
          <Button
            variant="danger"
            onClick={() => {
              onClose();
              request.onConfirm();
            }}
          >
            {request.confirmLabel}
          </Button>
        </>
      }
    >
      <p>{request.body}</p>
    </EditorDialog>
  );
}

const SHORTCUTS: Array<{ keys: string; what: string }> = [
  { keys: 'Ctrl / ⌘ + Z', what: 'Undo your last change' },
  { keys: 'Ctrl / ⌘ + Shift + Z, Ctrl + Y', what: 'Redo' },
  { keys: 'Ctrl / ⌘ + D', what: 'Duplicate the selected component' },
  { keys: 'Delete, Backspace', what: 'Delete the selected component (in the component list)' },
  { keys: 'Alt + ↑ / ↓', what: 'Move the selected component (or the focused row) up or down' },
  { keys: 'Space, then ↑ / ↓, then Space', what: 'Drag a row with the keyboard from its handle' },
  { keys: '?', what: 'Show these shortcuts' },
];

export function ShortcutsDialog({ onClose }: { onClose(): void }) {
  return (
    <EditorDialog title="Keyboard shortcuts" onClose={onClose}>
      <p>Shortcuts don’t apply while you type in a field, where Ctrl+Z undoes your typing.</p>
      <table className="editor-shortcuts">
        <thead>
          <tr>
            <th scope="col">Keys</th>
            <th scope="col">What they do</th>
          </tr>
        </thead>
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.keys}>
              <td>
                <kbd>{s.keys}</kbd>
              </td>
              <td>{s.what}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </EditorDialog>
  );
}

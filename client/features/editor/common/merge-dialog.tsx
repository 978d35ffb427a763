import type { ReactNode } from 'react';
import { Button } from '../../../ui/button';
import { Notice } from '../../../ui/notice';
import { EditorDialog } from './editor-dialog';

/**
 * The dialog of a merge a person runs — pulling a remix's original, updating a draft, merging a
 * draft back: what would come in and the button that does it, then, once `done`, what came in and
 * each conflict to settle, with Done. A problem is shown above either.
 */
export function MergeDialog({
  title,
  done,
  problem,
  go,
  onClose,
  onDone = onClose,
  children,
}: {
  title: string;
  done: boolean;
  problem: string | null;
  /** The button that merges, beside "Not now". */
  go: { label: string; onClick(): void; disabled?: boolean; autoFocus?: boolean };
  onClose(): void;
  /** Done, and closing the dialog once the merge is done (default: onClose). */
  onDone?: () => void;
  children: ReactNode;
}) {
  return (
    <EditorDialog
      title={title}
      onClose={done ? onDone : onClose}
      wide
      actions={
        done ? (
          <Button onClick={onDone} autoFocus>
            Done
          </Button>
        ) : (
          <>
            <Button variant="secondary" onClick={onClose}>
              Not now
            </Button>
            <Button onClick={go.onClick} disabled={go.disabled} autoFocus={go.autoFocus}>
              {go.label}
            </Button>
          </>
        )
      }
    >
      {problem ? (
        <Notice tone="danger" title="That didn’t work" live="alert">
          <p>{problem}</p>
        </Notice>
      ) : null}
      {children}
    </EditorDialog>
  );
}

import { Button } from '../../../ui/button';
import type { ConfirmRequest } from './editor-dialog';
import { useEditor } from './editor-context';

/**
 * A small "Delete …" button that asks first (the editor's confirm dialog); `onConfirm` runs only if
 * the person agrees. Nothing shows in a read-only editor.
 */
export function ConfirmDeleteButton({
  label,
  title,
  body,
  confirmLabel,
  onConfirm,
}: ConfirmRequest & { label: string }) {
  const { readOnly, confirm } = useEditor();
  if (readOnly) return null;
  return (
    <Button
      size="small"
      variant="ghost"
      className="danger-text"
      onClick={() => confirm({ title, body, confirmLabel, onConfirm })}
    >
      {label}
    </Button>
  );
}

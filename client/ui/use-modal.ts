import { type RefObject, useEffect, useRef } from 'react';

/**
 * Opens a native `<dialog>` as a modal while the component is mounted: focus is trapped, Escape
 * closes (its `cancel` event), and focus returns to what opened it when it goes. Dialogs are
 * rendered only while open.
 */
export function useModal(): RefObject<HTMLDialogElement | null> {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    return () => {
      if (dialog.open) dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  return ref;
}

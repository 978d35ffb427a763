import { useEffect, useRef } from 'react';
import { isTyping } from './common/typing';

export interface ShortcutHandlers {
  undo(): void;
  redo(): void;
  /** Duplicate the selected component; false when nothing is selected. */
  duplicate(): boolean;
  /** Move the selected component by one; false when nothing is selected. */
  move(delta: -1 | 1): boolean;
  help(): void;
}

/**
 * The editor's keyboard shortcuts (see the shortcuts dialog). None fires while the person types
 * in a field: there Ctrl+Z is the browser's own text undo. Delete and Backspace belong to the
 * component list (component-tree.tsx), since outside it they would surprise.
 */
export function useEditorShortcuts(handlers: ShortcutHandlers): void {
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing || isTyping(event.target)) return;
      // A modal dialog is open: its own keys only.
      if (document.querySelector('dialog[open]')) return;
      const h = latest.current;
      const mod = event.ctrlKey || event.metaKey;
      const key = event.key.toLowerCase();
      if (mod && !event.altKey && key === 'z') {
        event.preventDefault();
        if (event.shiftKey) h.redo();
        else h.undo();
      } else if (event.ctrlKey && !event.metaKey && !event.shiftKey && key === 'y') {
        event.preventDefault();
        h.redo();
      } else if (mod && !event.shiftKey && !event.altKey && key === 'd') {
        if (h.duplicate()) event.preventDefault();
      } else if (event.altKey && !mod && (event.key === 'ArrowUp' || event.key === 'ArrowDown')) {
        if (h.move(event.key === 'ArrowUp' ? -1 : 1)) event.preventDefault();
      } else if (event.key === '?' && !mod && !event.altKey) {
        event.preventDefault();
        h.help();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}

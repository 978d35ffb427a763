const NON_TEXT_INPUTS = new Set([
  'checkbox',
  'radio',
  'button',
  'submit',
  'reset',
  'range',
  'color',
  'file',
]);

/**
 * Whether keys pressed here are typing: text inputs, text areas, selects and editable content
 * keep their own keys (and their own Ctrl+Z), so editor shortcuts leave them alone.
 */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && !NON_TEXT_INPUTS.has(target.type);
}

const DISCRETE_INPUTS = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'file']);

/** Whether successive edits from this element are one gesture (typing, dragging a colour). */
export function groupsTyping(element: Element | null): boolean {
  if (element instanceof HTMLTextAreaElement) return true;
  return element instanceof HTMLInputElement && !DISCRETE_INPUTS.has(element.type);
}

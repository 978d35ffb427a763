import type { ReadComponent, ReadDefinition } from '@pipit/app-definition';
import { lockedMessage } from './actions';
import type { RuntimeData, RuntimeRecord } from './runtime-data';

/*
 * What the person may do here, known before they try: the host says which collections
 * they may not add to (a space they can only view, a full space) and which records they may not
 * change (another member's under the author rule); controls that could only be refused are not
 * offered, and the screen says why once.
 */

/** Why a create form for `collectionId` cannot save here, or null. */
export function createBlocked(data: RuntimeData, collectionId: string | null): string | null {
  return collectionId ? (data.createBlocked?.(collectionId) ?? null) : null;
}

/** Why a screen opened with `record` offers nothing to do: every form on it is closed. */
function screenBlocked(
  definition: ReadDefinition,
  data: RuntimeData,
  record: RuntimeRecord | null,
  screenId: string | null,
): string | null {
  const screen = definition.screens.find((s) => s.id === screenId);
  const forms = (screen?.components ?? []).flatMap((c) => (c.type === 'form' ? [c.props] : []));
  if (forms.length === 0) return null;
  let reason: string | null = null;
  for (const form of forms) {
    const why =
      form.mode === 'edit'
        ? record && !record.isOwn && record.collectionId === form.collectionId
          ? lockedMessage(record)
          : null
        : createBlocked(data, form.collectionId);
    if (!why) return null;
    reason ??= why;
  }
  return reason;
}

/**
 * Why running `actionId` on `record` (the screen's) could only be refused, or null when it may run.
 * Judged from its steps as they would run: adding to a collection closed to the person, changing
 * or deleting a record they may not change, or leading to a screen whose every form is closed.
 */
export function actionBlocked(
  definition: ReadDefinition,
  data: RuntimeData,
  record: RuntimeRecord | null,
  actionId: string | null,
): string | null {
  const action = definition.actions.find((a) => a.id === actionId);
  for (const step of action?.steps ?? []) {
    switch (step.type) {
      case 'createRecord': {
        const why = createBlocked(data, step.props.collectionId);
        if (why) return why;
        // Later steps change the record just made, the person's own.
        return null;
      }
      case 'updateRecord':
      case 'setField':
      case 'deleteRecord':
        if (record && !record.isOwn) return lockedMessage(record);
        break;
      case 'navigate':
        return screenBlocked(definition, data, record, step.props.screenId);
      case 'back':
        return null;
      default:
        break;
    }
  }
  return null;
}

/** The reasons a screen's buttons are not offered, each once, in screen order. */
export function blockedButtons(
  definition: ReadDefinition,
  data: RuntimeData,
  record: RuntimeRecord | null,
  components: readonly ReadComponent[],
): string[] {
  const reasons = new Set<string>();
  for (const component of components) {
    if (component.type !== 'button') continue;
    const why = actionBlocked(definition, data, record, component.props.actionId);
    if (why) reasons.add(why);
  }
  return [...reasons];
}

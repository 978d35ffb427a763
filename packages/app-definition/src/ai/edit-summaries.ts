import * as Y from 'yjs';
import { rawDefinition } from '../publish/publish-check';

/*
 * AI as a co-editor (docs/product/ai-builder.md): the model answers an instruction with a list of the typed
 * operations below, keyed by the ids of the current definition. A thing the list creates gets a
 * `ref` (a name of the model's choosing); later operations point at it by that name wherever an id
 * goes. The list is validated against the current definition, summarised for the person who asked,
 * and applied in one transaction through document/operations.ts.
 */

/** Most operations one answer may hold. */
import { scheduleInWords } from '../reminders/words';
import { type AiEdit, type Json, list, type Source, str } from './ai-edits';

/*
 * Ask AI's operations as sentences for the person who asked, before they accept them
 * (ai-edits.ts has the operations themselves).
 */

const TYPE_WORDS: Record<string, string> = {
  longText: 'long text',
  boolean: 'yes/no',
  select: 'choice',
  multiChoice: 'choices',
  dateTime: 'date and time',
};

/**
 * The operations as sentences for the person who asked ("Add field Rating (number) to Books",
 * "Show Rating in the Books list"), in order. Names come from the app and from the list itself.
 */
export function summarizeEdits(source: Source, ops: AiEdit[]): string[] {
  const raw = source instanceof Y.Doc ? rawDefinition(source) : (source as unknown as Json);
  const names = new Map<string, string>();
  const componentInfo = new Map<string, { type: string; screen: string; props: Json }>();
  for (const c of list(raw.collections)) {
    names.set(str(c.id), str(c.name));
    for (const f of list(c.fields)) names.set(str(f.id), str(f.name));
  }
  for (const s of list(raw.screens)) {
    names.set(str(s.id), str(s.title));
    for (const c of list(s.components)) {
      componentInfo.set(str(c.id), {
        type: str(c.type),
        screen: str(s.title),
        props: (c.props ?? {}) as Json,
      });
    }
  }
  for (const a of list(raw.aiActions)) names.set(str(a.id), str(a.name));
  for (const r of list(raw.reminders)) names.set(str(r.id), str(r.title));
  const nameOf = (id: unknown) => names.get(str(id)) ?? 'a new one';
  const describe = (type: string, props: Json) =>
    type === 'list' && props.collectionId
      ? `the ${nameOf(props.collectionId)} list`
      : `the ${type}`;
  const fieldsShown = (props: Json): string[] => {
    const ids = [
      props.titleFieldId,
      props.subtitleFieldId,
      props.fieldId,
      props.labelFieldId,
      props.valueFieldId,
      props.checkFieldId,
    ];
    if (Array.isArray(props.fieldIds)) ids.push(...(props.fieldIds as unknown[]));
    if (Array.isArray(props.columnFieldIds)) ids.push(...(props.columnFieldIds as unknown[]));
    return ids.filter((id) => typeof id === 'string' && names.has(id)).map((id) => nameOf(id));
  };

  return ops.map((op) => {
    switch (op.op) {
      case 'addCollection':
        names.set(op.ref, op.name);
        return `Add collection ${op.name}`;
      case 'renameCollection': {
        const line = `Rename collection ${nameOf(op.collectionId)} to ${op.name}`;
        names.set(op.collectionId, op.name);
        return line;
      }
      case 'setCollectionSharing': {
        const changes = [
          op.sharing === 'space' ? 'share its records in a space' : null,
          op.sharing === 'private' ? 'keep its records private to each visitor' : null,
          op.recordRule === 'anyone' ? 'anyone in the space can change a record' : null,
          op.recordRule === 'author' ? 'only the person who added a record can change it' : null,
        ].filter(Boolean);
        return `Change collection ${nameOf(op.collectionId)}: ${changes.join(', ') || 'no change'}`;
      }
      case 'addField':
        names.set(op.ref, op.name);
        return `Add field ${op.name} (${TYPE_WORDS[op.type] ?? op.type}) to ${nameOf(op.collectionId)}`;
      case 'setField': {
        const changes = [
          op.name !== undefined ? `rename it to ${op.name}` : null,
          op.required !== undefined
            ? op.required
              ? 'make it required'
              : 'make it optional'
            : null,
          op.choices !== undefined ? `choices ${op.choices.join(', ')}` : null,
        ].filter(Boolean);
        const line = `Change field ${nameOf(op.fieldId)}: ${changes.join(', ') || 'no change'}`;
        if (op.name !== undefined) names.set(op.fieldId, op.name);
        return line;
      }
      case 'addScreen':
        names.set(op.ref, op.title);
        return `Add screen ${op.title}`;
      case 'setScreen': {
        const line =
          op.title !== undefined
            ? `Rename screen ${nameOf(op.screenId)} to ${op.title}`
            : `Change the icon of screen ${nameOf(op.screenId)}`;
        if (op.title !== undefined) names.set(op.screenId, op.title);
        return line;
      }
      case 'addComponent': {
        componentInfo.set(op.ref, { type: op.type, screen: nameOf(op.screenId), props: op.props });
        const what =
          op.type === 'list' && op.props.collectionId
            ? `a list of ${nameOf(op.props.collectionId)}`
            : `a ${op.type}`;
        return `Add ${what} to ${nameOf(op.screenId)}`;
      }
      case 'setProperty': {
        const info = componentInfo.get(op.componentId);
        const type = info?.type ?? 'component';
        const merged = { ...(info?.props ?? {}), ...op.props };
        const before = new Set(fieldsShown(info?.props ?? {}));
        const added = fieldsShown(op.props).filter((n) => !before.has(n));
        if (info) info.props = merged;
        // "Show the Books list as a board": the view is what the person asked to see.
        if (type === 'list' && typeof op.props.view === 'string' && op.props.view !== 'list')
          return `Show ${describe(type, merged)} as a ${op.props.view}`;
        if (added.length > 0) return `Show ${added.join(', ')} in ${describe(type, merged)}`;
        return `Change ${Object.keys(op.props).join(', ')} of ${describe(type, merged)}${info ? ` on ${info.screen}` : ''}`;
      }
      case 'removeComponent': {
        const info = componentInfo.get(op.componentId);
        return `Remove ${describe(info?.type ?? 'component', info?.props ?? {})}${info ? ` from ${info.screen}` : ''}`;
      }
      case 'moveComponent': {
        const info = componentInfo.get(op.componentId);
        return `Move ${describe(info?.type ?? 'component', info?.props ?? {})}${op.screenId ? ` to ${nameOf(op.screenId)}` : ` on ${info?.screen ?? 'its screen'}`}`;
      }
      case 'addAiAction':
        names.set(op.ref, op.name);
        return `Add AI action ${op.name}`;
      case 'addReminder':
        names.set(op.ref, op.title);
        return `Add reminder “${op.title}”: ${scheduleInWords(op.schedule, nameOf)}`;
      case 'setReminder': {
        const changes = [
          op.title !== undefined ? `rename it to “${op.title}”` : null,
          op.body !== undefined ? 'change its text' : null,
          op.schedule ? `remind ${scheduleInWords(op.schedule, nameOf)}` : null,
        ].filter(Boolean);
        const line = `Change reminder “${nameOf(op.reminderId)}”: ${changes.join(', ') || 'no change'}`;
        if (op.title !== undefined) names.set(op.reminderId, op.title);
        return line;
      }
      case 'removeReminder':
        return `Remove reminder “${nameOf(op.reminderId)}”`;
    }
  });
}

import type { Collection, ComponentProps, Field } from '@pipit/app-definition';
import { fieldText } from '../records';
import type { RenderContext } from '../render-context';
import type { RuntimeRecord } from '../runtime-data';

/**
 * A record as a list's views get it: the running app's (which says whether the visitor may change
 * it, and why not), or a creator record in the editor's preview.
 */
export type ListRecord = Pick<RuntimeRecord, 'id' | 'values'> &
  Partial<Pick<RuntimeRecord, 'isOwn' | 'locked' | 'lockedWhy' | 'shown'>>;

/** What the list component hands each of its views (list-blocks.tsx). */
export interface ViewProps {
  props: ComponentProps<'list'>;
  collection: Collection;
  /** After the creator's filter, the visitor's search and quick filter, and the creator's sort. */
  records: readonly ListRecord[];
  titleField: Field | null;
  subtitleField: Field | null;
  context: RenderContext;
  /** Opens a record on the list's detail screen; null when the list opens none. */
  open: ((recordId: string) => void) | null;
  /** What shows when no record is left: the creator's empty text, or that nothing matches. */
  emptyText: string;
}

export function valueText(
  record: Pick<ListRecord, 'values' | 'shown'>,
  field: Field | null,
): string {
  return fieldText(record, field);
}

/** A record's name wherever one is shown: its title field, or "Untitled". */
export function titleText(
  record: Pick<ListRecord, 'values' | 'shown'>,
  field: Field | null,
): string {
  return valueText(record, field) || 'Untitled';
}

/** A record's title and subtitle, as the plain list shows them. */
export function RecordText({
  record,
  titleField,
  subtitleField,
}: {
  record: ListRecord;
  titleField: Field | null;
  subtitleField: Field | null;
}) {
  const subtitle = valueText(record, subtitleField);
  return (
    <>
      <span className="rt-list-title">{titleText(record, titleField)}</span>
      {subtitle && <span className="rt-list-subtitle">{subtitle}</span>}
    </>
  );
}

/** A view with nothing to show, in the plain list's words and look. */
export function EmptyView({ text }: { text: string }) {
  return <p className="rt-card rt-muted rt-empty">{text}</p>;
}

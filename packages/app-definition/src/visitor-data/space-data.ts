import type { CollectionRecordRule } from '../schema/sharing';
import type { VisitorRecord } from './visitor-records';

/*
 * A shared space's records (docs/product/spaces.md): the document `space/{spaceId}` has the layout
 * of a visitor's private data (visitor-data.ts), each record with the `authorId` of the account
 * that added it. Which collections live there is the creator's choice (`sharing: 'space'`); who may
 * change a record is the collection's `recordRule`, enforced by the server from each update's
 * content and followed here so the app never offers what the server would refuse.
 */

/** Whether `userId` may change or delete `record` under its collection's rule. */
export function canChangeSpaceRecord(
  record: Pick<VisitorRecord, 'authorId'>,
  rule: CollectionRecordRule,
  userId: string,
): boolean {
  return rule === 'anyone' || record.authorId === userId;
}

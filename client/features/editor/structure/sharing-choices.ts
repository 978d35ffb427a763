import type { CollectionRecordRule, CollectionSharing } from '@pipit/app-definition';

/** What the creator reads for each place a collection's visitor records can live. */
export const SHARING_CHOICES: Record<CollectionSharing, { label: string; hint: string }> = {
  private: {
    label: 'Each visitor, privately',
    hint: 'Every visitor keeps their own records. Nobody else sees them.',
  },
  space: {
    label: 'Everyone in a shared space',
    hint: 'Records are shared with everyone in the visitor’s space.',
  },
};

/** Who may change a record of a shared collection, in the creator's words. */
export const RECORD_RULE_CHOICES: Record<CollectionRecordRule, { label: string; hint: string }> = {
  anyone: {
    label: 'Anyone in the space',
    hint: 'Anyone in the space can edit or delete any record.',
  },
  author: {
    label: 'Only the person who added it',
    hint: 'Everyone in the space sees every record; only its author can edit or delete it.',
  },
};

/** How spaces work, shown under the choice. */
export const SPACES_HELP =
  'A visitor can create a space and invite people to it. Everyone in the space sees the same records. You, the app’s creator, don’t see inside spaces.';

/** One person's choice for one space's activity (docs/product/reminders.md#space-activity). */
export interface SpaceActivityPreferenceRecord {
  spaceId: string;
  userId: string;
  /** Told when others add or complete items in the space. */
  enabled: boolean;
  /** The items' names in what they are told; without, only how many. */
  showNames: boolean;
  updatedAt: number;
}

/** What someone did to one record: added it, or turned its done-like field on. */
export type SpaceActivityKind = 'added' | 'completed';

/** One change waiting to be told to one recipient. */
export interface SpaceActivityItem {
  id: string;
  spaceId: string;
  recipientId: string;
  authorId: string;
  kind: SpaceActivityKind;
  recordId: string;
  /** The item's name; null when the recipient chose not to see names, or it has none. */
  name: string | null;
  createdAt: number;
  /** The end of the batch the change fell in (UTC epoch ms). */
  windowEnd: number;
}

export interface SpaceActivityStore {
  /**
   * Stores a person's choice for a space, replacing what was there; false (nothing stored) when
   * they are not in the space: a choice belongs to a membership and goes with it.
   */
  putPreference(record: SpaceActivityPreferenceRecord): Promise<boolean>;
  getPreference(spaceId: string, userId: string): Promise<SpaceActivityPreferenceRecord | null>;
  /** The people of a space who turned its activity on. */
  watchers(spaceId: string): Promise<SpaceActivityPreferenceRecord[]>;
  /** A person's choices over every space they are in, turned on or not. */
  listForUser(userId: string): Promise<SpaceActivityPreferenceRecord[]>;
  /**
   * Adds changes waiting to be told. Items for someone no longer in the space are left out, not
   * refused (they left between the change and now); answers how many were added.
   */
  addItems(items: SpaceActivityItem[]): Promise<number>;
  /**
   * Claims for `claimant` the recipient's waiting items in a space whose batch ended by
   * `windowEnd`, and answers every item `claimant` holds there, oldest first: items claimed
   * before by the same claimant (a retry) come back, items another claimant holds do not.
   */
  claimItems(
    spaceId: string,
    recipientId: string,
    windowEnd: number,
    claimant: string,
  ): Promise<SpaceActivityItem[]>;
  /** Deletes the items `claimant` holds (they were told); answers how many went. */
  finishItems(claimant: string): Promise<number>;
  /**
   * The end of the recipient's batch in a space still open after `after`: the earliest
   * `windowEnd` of their waiting, unclaimed items that ends later than `after`; null when none
   * is open (a change then opens a batch of its own).
   */
  openWindow(spaceId: string, recipientId: string, after: number): Promise<number | null>;
  /** Whether any change waits to be told (at start-up: the queue is started for it). */
  anyWaiting(): Promise<boolean>;
  /** Deletes the recipient's waiting items in a space whose batch ended by `windowEnd`. */
  dropItems(spaceId: string, recipientId: string, windowEnd: number): Promise<number>;
}

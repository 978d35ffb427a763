/** An account that sees the operator's inbox, since `addedAt`. */
export interface OperatorRecord {
  userId: string;
  addedAt: number;
}

/** Operators are accounts, by id: a rename or a name taken over never moves the role. */
export interface OperatorStore {
  /** Returns false, changing nothing, when the account already is one. */
  add(userId: string, at: number): Promise<boolean>;
  /** Returns whether it was one. */
  remove(userId: string): Promise<boolean>;
  has(userId: string): Promise<boolean>;
  /** Oldest first. */
  list(): Promise<OperatorRecord[]>;
}

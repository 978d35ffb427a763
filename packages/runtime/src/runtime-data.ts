import type { Collection, FieldValue, VisitorRecord } from '@pipit/app-definition';

/** A record as the running app sees it: the creator's (read-only to visitors) or the visitor's. */
export interface RuntimeRecord {
  id: string;
  collectionId: string;
  /** By field id. */
  values: Readonly<Record<string, FieldValue>>;
  /** True for the visitor's own records: only those can be changed or deleted. */
  isOwn: boolean;
}

/**
 * The visitor's data as the runtime reads and changes it. The client backs it with the Yjs document
 * `data/{appId}/{userId}` (each method one call of @pipit/app-definition's visitor-data operations);
 * the editor preview, /demo1 and tests can use `useMemoryRuntimeData`. A new object (snapshot) is
 * expected after every change, so React sees it. Methods throw a DefinitionError whose message is
 * shown to the visitor when a value or a limit is refused.
 */
export interface RuntimeData {
  /** The visitor's own records, in creation order. */
  readonly records: readonly VisitorRecord[];
  /** Counter components' values, by component id. */
  readonly counters: Readonly<Record<string, number>>;
  /** Adds a record (values by field id, checked against the collection); returns its id. */
  create(collection: Collection, values: Readonly<Record<string, unknown>>): string;
  /** Sets some fields of one of the visitor's records. */
  update(collection: Collection, recordId: string, values: Readonly<Record<string, unknown>>): void;
  remove(recordId: string): void;
  setCounter(counterId: string, value: number): void;
}

export interface RuntimeUser {
  name: string;
}

/** What an AI action runs with: its prompt with the placeholders filled in, and the data behind it. */
export interface AiRunScope {
  prompt: string;
  /** The current record's values by field id, if there is one. */
  record: Readonly<Record<string, FieldValue>> | null;
  /** The values a form just submitted, if the action follows a form. */
  input: Readonly<Record<string, FieldValue>> | null;
  user: RuntimeUser | null;
}

/**
 * Runs an AI action on the server and resolves with its text output; rejects with an Error whose
 * message is shown to the visitor (e.g. the quota is used up).
 */
export type RunAi = (aiActionId: string, scope: AiRunScope) => Promise<string>;

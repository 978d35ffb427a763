import type { Collection, FieldValue, PersonChoice, VisitorRecord } from '@pipit/app-definition';

/** A record as the running app sees it: the creator's (read-only to visitors) or the visitor's. */
export interface RuntimeRecord {
  id: string;
  collectionId: string;
  /** By field id. */
  values: Readonly<Record<string, FieldValue>>;
  /** True for records the visitor may change or delete: their own, or a space's they may edit. */
  isOwn: boolean;
  /**
   * Why a visitor's-side record cannot be changed: `author` for another member's record in a
   * shared collection only its author may change (absent for the app's own records).
   */
  locked?: 'author';
  /** What the person reads about why they may not change it (the host knows: reader, author). */
  lockedWhy?: string;
  /** A shared space's record: who added it ("a former member" once they left). */
  authorName?: string;
  /** Why a formula field couldn't be worked out for this record, by field id ("Divided by zero."). */
  formulaErrors?: Readonly<Record<string, string>>;
  /** What a value reads as when it isn't its own text: a relation's linked records' names. */
  shown?: Readonly<Record<string, string>>;
}

/**
 * A record of the visitor's data: their own, or one of a shared space's (docs/product/spaces.md),
 * where `editable` false means only its author may change it.
 */
export interface RuntimeDataRecord extends VisitorRecord {
  readonly editable?: boolean;
  /** Why it is not editable, as the person reads it ("Only Ben, who added it, can change it."). */
  readonly lockedWhy?: string;
  /** Who added it, as the space's members know them. */
  readonly authorName?: string;
}

/**
 * The visitor's data as the runtime reads and changes it. The client backs it with the Yjs document
 * `data/{appId}/{userId}` (each method one call of @pipit/app-definition's visitor-data operations);
 * the editor preview, /demo1 and tests can use `useMemoryRuntimeData`. A new object (snapshot) is
 * expected after every change, so React sees it. Methods throw a DefinitionError whose message is
 * shown to the visitor when a value or a limit is refused.
 */
export interface RuntimeData {
  /** The visitor's own records, and the shared space's, in creation order. */
  readonly records: readonly RuntimeDataRecord[];
  /** Counter components' values, by component id. */
  readonly counters: Readonly<Record<string, number>>;
  /** Adds a record (values by field id, checked against the collection); returns its id. */
  create(collection: Collection, values: Readonly<Record<string, unknown>>): string;
  /** Sets some fields of one of the visitor's records. */
  update(collection: Collection, recordId: string, values: Readonly<Record<string, unknown>>): void;
  remove(recordId: string): void;
  /**
   * Adds many records to one collection at once (a CSV import): all of them in one change, or
   * none (a DefinitionError that says which and why). Returns their ids, in order.
   */
  createMany?(collection: Collection, rows: readonly Readonly<Record<string, unknown>>[]): string[];
  setCounter(counterId: string, value: number): void;
  /**
   * Why the person may not add to a collection here (a space they can only view, or that is
   * full), or null: forms and buttons that could only be refused are then not offered.
   */
  createBlocked?(collectionId: string): string | null;
  /**
   * Whom a person field can name (docs/product/app-definition.md, "People in a space"): the shown
   * space's people by account id and the name its members know them by, or the person alone in
   * their own data. Absent where nobody is known (not known on this device yet, an anonymous
   * visitor, the editor's preview).
   */
  readonly people?: readonly PersonChoice[];
  /** The person's own account id: "Me" in a person field's picker. Absent when not signed in. */
  readonly me?: string;
}

export interface RuntimeUser {
  name: string;
}

/** What a run produced: the answer's text, or a record's values by field id (checked by the server). */
export type AiOutput =
  { kind: 'text'; text: string } | { kind: 'record'; values: Readonly<Record<string, FieldValue>> };

/**
 * What the runtime hands the host for one run: never a prompt. The server fills in its own copy of
 * the template with these values (docs/product/ai.md).
 */
export interface AiRunAsk {
  aiActionId: string;
  /** Each binding the template uses (`record.title`, `input.note`, `user.name`) → its value. */
  bindings: Readonly<Record<string, string>>;
  /** The record a `field` target writes to, so a run that lands later finds it by id. */
  recordId: string | null;
}

/** The host's answer: the output now, or the run waits on the device (offline) and lands later. */
export type AiRunAnswer =
  { status: 'done'; output: AiOutput } | { status: 'queued'; runId: string };

/**
 * Runs an AI action on the server. Rejects with an Error whose message is shown to the visitor
 * (the quota is used up, the answer did not fit and nothing was saved, …).
 */
export type RunAi = (ask: AiRunAsk) => Promise<AiRunAnswer>;

/** A run the host keeps on the device (queued offline), as the AI component and lists show it. */
export interface AiRunView {
  id: string;
  aiActionId: string;
  recordId: string | null;
  state: 'queued' | 'working' | 'done' | 'failed';
  /** The answer's text once done (what an AI component shows). */
  text: string | null;
  /** Why it failed, in the visitor's words. */
  problem: string | null;
}

/** A file the person picked (a browser `File`): what the runtime reads of it. */
export interface PickedFile {
  readonly name: string;
  readonly type: string;
  readonly size: number;
}

/**
 * Photos and files on records (docs/product/records.md#photos-and-files-on-records), as the host
 * keeps them: the bytes on this device at once, sent to the server when it can be reached, never
 * inside the records' document. Absent where there is nowhere to keep them (the editor's preview).
 */
export interface RuntimeFiles {
  /**
   * Keeps a picked file for a record of `collectionId` and resolves with the value its field
   * stores (`sha256:…`, @pipit/app-definition's formatFileReference); rejects with an Error whose
   * message is shown to the person (not an image we can read, this device is full).
   */
  add(collectionId: string, kind: 'image' | 'file', file: PickedFile): Promise<string>;
  /**
   * Where to show or download a kept file: this device's copy when it has one, else the server's
   * (`thumbnail`: a photo's small version, what lists and galleries show). Null when neither can
   * have it (someone not signed in, on another device).
   */
  url(
    collectionId: string,
    hash: string,
    variant: 'thumbnail' | 'original',
  ): Promise<string | null>;
}

import type * as Y from 'yjs';
import type { ClientOwnership } from './client-owners';
import type { DocumentUsage } from './resource-bounds';
import { itemsOf } from './yjs-usage';

/** An update the guard let through, on its way to the log and the document. */
export interface CheckedUpdate {
  update: Uint8Array;
  /** What it adds to its document at most (it counts from the moment it is let through). */
  growth: DocumentUsage;
  /** The records it adds to a shared space (counted against the space's limit from now on). */
  records?: number;
}

/** What the server knows of one loaded document. */
export interface DocumentEntry {
  /** Changes this instance saw from its own clients, and how many of those are in storage. */
  changes: number;
  stored: number;
  /**
   * The document's size in bytes and Yjs structs: as last measured (on load and store), plus the
   * updates let through since. An update counts from the moment it is let through, before it is
   * logged and applied, so updates arriving together cannot pass the limits together.
   */
  bytes: number;
  items: number;
  /** Updates let through but not applied yet: not in a measurement taken now. */
  inFlight: DocumentUsage;
  /**
   * New records of a shared space in updates let through but not applied yet: the space's record
   * limit counts them, so updates arriving together cannot pass it together.
   */
  recordsInFlight: number;
  /** Who owns each client id written under in this document, as read or claimed (client-owners.ts). */
  clients: ClientOwnership;
  /**
   * Logged updates (by sequence number) that are in the live document already: this instance
   * logged and applied them, or loaded them. A store need not read them back (persistence.ts).
   */
  held: Set<number>;
}

/** An update on its way: logged (its `seq` once written) and applied, in either order. */
interface Handled extends CheckedUpdate {
  name: string;
  seq?: number;
  applied: boolean;
}

/**
 * The book the collab steps share (create-collab.ts): each loaded document's changes and size,
 * the update each connection is handling now (one message at a time each), the writes under way
 * per document, and the documents being deleted. The guard writes an update in, the log and the
 * apply settle it, the persistence reads what is unsaved.
 */
export class DocumentLedger {
  private readonly entries = new Map<string, DocumentEntry>();
  private readonly handling = new WeakMap<object, Handled>();
  private readonly writing = new Map<string, Set<Promise<unknown>>>();
  /** Loaded documents being deleted (until they unload): nothing of theirs is written. */
  private readonly discarded = new Set<string>();

  of(name: string): DocumentEntry {
    let entry = this.entries.get(name);
    if (!entry) {
      entry = {
        changes: 0,
        stored: 0,
        bytes: 0,
        items: 0,
        inFlight: { bytes: 0, items: 0 },
        recordsInFlight: 0,
        clients: { owners: new Map(), tentative: new Set(), retryAt: 0 },
        held: new Set(),
      };
      this.entries.set(name, entry);
    }
    return entry;
  }

  /** What a loaded document holds (bytes and Yjs structs); undefined when it is not loaded. */
  usageOf(name: string): DocumentUsage | undefined {
    const entry = this.entries.get(name);
    return entry && { bytes: entry.bytes, items: entry.items };
  }

  /** Takes the document's size as it is now (the updates in flight are not in it yet). */
  measure(name: string, document: Y.Doc, bytes: number): void {
    const entry = this.of(name);
    entry.bytes = bytes + entry.inFlight.bytes;
    entry.items = itemsOf(document) + entry.inFlight.items;
  }

  /** A connection's update was let through: it counts against its document from now on. */
  reserve(name: string, connection: object, checked: CheckedUpdate): void {
    this.grow(name, checked, 1);
    this.handling.set(connection, { name, ...checked, applied: false });
  }

  /** The update a connection is handling now, if the guard let one through. */
  inFlight(connection: object): Handled | undefined {
    return this.handling.get(connection);
  }

  /** The connection's update was applied: it is in a measurement from now on. */
  applied(connection: object): void {
    const handled = this.handling.get(connection);
    if (!handled) return;
    this.handling.delete(connection);
    const entry = this.of(handled.name);
    entry.inFlight.bytes -= handled.growth.bytes;
    entry.inFlight.items -= handled.growth.items;
    entry.recordsInFlight -= handled.records ?? 0;
    handled.applied = true;
    if (handled.seq !== undefined) entry.held.add(handled.seq);
  }

  /** An update was written to the log as `seq` (before or after it was applied). */
  logged(handled: Handled, seq: number): void {
    handled.seq = seq;
    if (handled.applied) this.of(handled.name).held.add(seq);
  }

  /** Logged updates `seqs` are in the live document (they were loaded into it). */
  hold(name: string, seqs: number[]): void {
    const { held } = this.of(name);
    for (const seq of seqs) held.add(seq);
  }

  /** Whether the logged update `seq` is in the live document already. */
  isHeld(name: string, seq: number): boolean {
    return this.entries.get(name)?.held.has(seq) ?? false;
  }

  /** Logged updates `seqs` were folded into the snapshot and left the log. */
  folded(name: string, seqs: number[]): void {
    const held = this.entries.get(name)?.held;
    if (held) for (const seq of seqs) held.delete(seq);
  }

  /** The connection's update never reached the document (the log refused it): it counts no more. */
  refused(connection: object): void {
    const handled = this.handling.get(connection);
    if (!handled) return;
    this.handling.delete(connection);
    this.grow(handled.name, handled, -1);
  }

  private grow(name: string, { growth, records = 0 }: CheckedUpdate, sign: 1 | -1) {
    const entry = this.of(name);
    entry.recordsInFlight += sign * records;
    entry.bytes += sign * growth.bytes;
    entry.items += sign * growth.items;
    entry.inFlight.bytes += sign * growth.bytes;
    entry.inFlight.items += sign * growth.items;
  }

  /** A change from this instance's own clients: the document has something to store. */
  changed(name: string): void {
    this.of(name).changes += 1;
  }

  isDirty(name: string): boolean {
    const entry = this.entries.get(name);
    return !this.discarded.has(name) && !!entry && entry.changes > entry.stored;
  }

  dirtyDocuments(): string[] {
    return [...this.entries.keys()].filter((name) => this.isDirty(name));
  }

  /** Runs `work` as one of the document's writes under way (a deletion waits for them). */
  tracked<T>(name: string, work: Promise<T>): Promise<T> {
    const pending = this.writing.get(name) ?? new Set<Promise<unknown>>();
    this.writing.set(name, pending);
    const done = work.finally(() => {
      pending.delete(done);
      if (pending.size === 0 && this.writing.get(name) === pending) this.writing.delete(name);
    });
    pending.add(done);
    return done;
  }

  /** Marks documents as being deleted; resolves once their writes under way are done. */
  async discard(names: string[]): Promise<void> {
    for (const name of names) this.markDiscarded(name);
    await Promise.allSettled(names.flatMap((name) => [...(this.writing.get(name) ?? [])]));
  }

  /**
   * Marks a document as being deleted without waiting for its writes: for a write under way that
   * finds it deleted (it is one of those writes, and waiting for them would wait for itself).
   */
  markDiscarded(name: string): void {
    this.discarded.add(name);
  }

  isDiscarded(name: string): boolean {
    return this.discarded.has(name);
  }

  /** The document left memory: nothing is kept of it. */
  forget(name: string): void {
    this.entries.delete(name);
    this.discarded.delete(name);
  }
}

import { getHeapStatistics } from 'node:v8';
import { SyncRefusal } from './refusal';
import type { OpeningKind } from '../metrics';
import type { ResourceLimits } from './resource-limits';

/** What a loaded document holds: its encoded size and its items (yjs-usage.ts). */
export interface DocumentUsage {
  bytes: number;
  items: number;
}

/** One socket's open documents (connections per document) and whose socket it is. */
interface SocketHolds {
  userId: string;
  documents: Map<string, number>;
}

/**
 * Connections one socket may hold to one document. The client holds one; Hocuspocus also accepts
 * `name\0session` keys, each a connection of its own with its own presence, which would otherwise
 * let one socket multiply a document's broadcasts.
 */
export const MAX_CONNECTIONS_PER_DOCUMENT = 3;
/** Refused messages a person may send in a minute before the rest are refused undecoded. */
export const REFUSALS_BEFORE_SLOWDOWN = 5;
const SLOWDOWN_WINDOW_MS = 60_000;
/** People with refusals kept before the expired ones are swept (a person's entry is small). */
const REFUSALS_KEPT_BEFORE_SWEEP = 10_000;
/** How long a person's admission waits for their previous document to load, at most. */
const LOAD_WAIT_MS = 10_000;

export interface ResourceBoundsOptions {
  limits: ResourceLimits;
  /** What a loaded document holds now; undefined until it has been loaded and measured. */
  usageOf(documentName: string): DocumentUsage | undefined;
  /** Whether the document is in memory (or being loaded) already. */
  isLoaded(documentName: string): boolean;
  /** Documents being loaded now. */
  loadingCount?: () => number;
  /** An opening told to come back later (counted in the metrics). */
  onShed?: (what: OpeningKind) => void;
  heapUsed?: () => number;
  now?: () => number;
}

/**
 * Keeps each person's share of the server's memory bounded (docs/limits.md): how many sockets and
 * documents they hold open, and the bytes and items of those documents; and refuses to load any
 * document, or to grow one, once the heap is past its budget. A document shared by several people
 * counts for each of them: it is in memory because of each.
 *
 * A document's size is known once it is loaded. So that documents opened all at once cannot pass a
 * person's limits together, a person's documents that are not loaded yet are admitted one at a
 * time: each admission waits until the one before it is loaded (and so measured).
 */
export class ResourceBounds {
  private readonly sockets = new Map<string, SocketHolds>();
  /** Each person's sockets (by socket id), for their totals. */
  private readonly people = new Map<string, Set<string>>();
  /** Per person: the end of the last admission of an unloaded document queued (their turns). */
  private readonly turns = new Map<string, Promise<void>>();
  /** Per document: the turns that end once it is loaded. */
  private readonly waitingForLoad = new Map<string, Array<() => void>>();
  /** Per person: when their recent refused messages were. */
  private readonly refusals = new Map<string, number[]>();
  /** Socket sessions being read and document accesses being checked now (openingAtOnce). */
  private opening = 0;
  /**
   * Per document, the sockets holding it (what each socket's `documents` says, the other way
   * round): an unloaded document is let go of by its holders, not looked for in every socket.
   */
  private readonly holders = new Map<string, Set<string>>();
  private readonly heapUsed: () => number;
  private readonly now: () => number;

  constructor(private readonly options: ResourceBoundsOptions) {
    // The same number as `process.memoryUsage().heapUsed`, read without its resident-set
    // measurement (a read of /proc on Linux, ~15 µs): this runs for every growing update.
    this.heapUsed = options.heapUsed ?? (() => getHeapStatistics().used_heap_size);
    this.now = options.now ?? Date.now;
  }

  get limits(): ResourceLimits {
    return this.options.limits;
  }

  /**
   * One more socket admission or document access check under way: the function that ends it, or
   * null when as many are under way (documents loading included) as the server takes at once.
   */
  startOpening(what: OpeningKind): (() => void) | null {
    const loading = this.options.loadingCount?.() ?? 0;
    if (this.opening + loading >= this.limits.openingAtOnce) {
      this.options.onShed?.(what);
      return null;
    }
    this.opening += 1;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.opening -= 1;
    };
  }

  /** Sync sockets `userId` holds open now. */
  socketsOf(userId: string): number {
    return this.people.get(userId)?.size ?? 0;
  }

  /** The sockets of the person whose socket this is (itself included). */
  socketsBeside(socketId: string): string[] {
    const userId = this.sockets.get(socketId)?.userId;
    return userId === undefined ? [] : [...(this.people.get(userId) ?? [])];
  }

  /** A socket opened for `userId`; false when they hold as many as they may. */
  openSocket(socketId: string, userId: string): boolean {
    const theirs = this.people.get(userId) ?? new Set<string>();
    if (theirs.size >= this.limits.personSockets) return false;
    theirs.add(socketId);
    this.people.set(userId, theirs);
    this.sockets.set(socketId, { userId, documents: new Map() });
    return true;
  }

  /** The socket closed: whatever it still held is released. */
  closeSocket(socketId: string): void {
    const holds = this.sockets.get(socketId);
    if (!holds) return;
    this.sockets.delete(socketId);
    for (const documentName of holds.documents.keys()) this.letGo(documentName, socketId);
    const theirs = this.people.get(holds.userId);
    theirs?.delete(socketId);
    if (theirs?.size === 0) {
      this.people.delete(holds.userId);
      // Refusals outlive the socket: connecting again must not wipe a slowdown.
      if (this.recentRefusals(holds.userId).length === 0) this.refusals.delete(holds.userId);
    }
  }

  /**
   * One more connection of a socket to a document, before the document is loaded for it. Throws
   * the refusal the client is told when the socket, the person or the server cannot take it.
   */
  async admit(socketId: string, documentName: string): Promise<void> {
    const userId = this.sockets.get(socketId)?.userId;
    // A socket that closed meanwhile holds nothing; Hocuspocus drops the connection itself.
    if (userId === undefined) return;
    if (this.options.usageOf(documentName) !== undefined) {
      this.hold(socketId, documentName);
      return;
    }
    const endTurn = await this.takeTurn(userId);
    try {
      this.hold(socketId, documentName);
    } catch (error) {
      endTurn();
      throw error;
    }
    // The next of the person's admissions waits until this document is loaded, and so measured.
    const waiting = this.waitingForLoad.get(documentName) ?? [];
    waiting.push(endTurn);
    this.waitingForLoad.set(documentName, waiting);
    setTimeout(endTurn, LOAD_WAIT_MS).unref();
  }

  private hold(socketId: string, documentName: string) {
    const holds = this.sockets.get(socketId);
    if (!holds) return;
    const held = holds.documents.get(documentName) ?? 0;
    if (held >= MAX_CONNECTIONS_PER_DOCUMENT) throw new SyncRefusal('too_many_documents');
    if (held === 0) this.checkNewDocument(holds, documentName);
    holds.documents.set(documentName, held + 1);
    const holders = this.holders.get(documentName);
    if (holders) holders.add(socketId);
    else this.holders.set(documentName, new Set([socketId]));
  }

  private letGo(documentName: string, socketId: string) {
    const holders = this.holders.get(documentName);
    holders?.delete(socketId);
    if (holders?.size === 0) this.holders.delete(documentName);
  }

  /** Queues one admission of an unloaded document; resolves with the function that ends it. */
  private async takeTurn(userId: string): Promise<() => void> {
    const previous = this.turns.get(userId) ?? Promise.resolve();
    let end!: () => void;
    const ended = new Promise<void>((resolve) => (end = resolve));
    const next = previous.then(() => ended);
    this.turns.set(userId, next);
    void next.then(() => {
      if (this.turns.get(userId) === next) this.turns.delete(userId);
    });
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, LOAD_WAIT_MS).unref());
    await Promise.race([previous, timeout]);
    return end;
  }

  private checkNewDocument(holds: SocketHolds, documentName: string) {
    if (!this.options.isLoaded(documentName) && this.heapUsed() > this.limits.heapBudgetBytes) {
      throw new SyncRefusal('server_busy');
    }
    if (holds.documents.size >= this.limits.socketDocuments) {
      throw new SyncRefusal('too_many_documents');
    }
    // A document the person holds on another socket already counts for them.
    const mine = this.documentsOf(holds.userId);
    if (mine.has(documentName)) return;
    const usage = this.totalOf(mine);
    if (
      mine.size >= this.limits.personDocuments ||
      usage.bytes >= this.limits.personBytes ||
      usage.items >= this.limits.personItems
    ) {
      throw new SyncRefusal('too_many_documents');
    }
  }

  /** The document is loaded and measured, or its load failed: admissions waiting for it go on. */
  loaded(documentName: string): void {
    const waiting = this.waitingForLoad.get(documentName);
    this.waitingForLoad.delete(documentName);
    for (const endTurn of waiting ?? []) endTurn();
  }

  /** A connection admitted to the document ended (or never came to be). */
  release(socketId: string, documentName: string): void {
    const documents = this.sockets.get(socketId)?.documents;
    const held = documents?.get(documentName);
    if (!documents || held === undefined) return;
    if (held > 1) documents.set(documentName, held - 1);
    else {
      documents.delete(documentName);
      this.letGo(documentName, socketId);
    }
  }

  /**
   * The document left memory: no connection holds it any more (one whose load failed never
   * connected, and is released here).
   */
  unloaded(documentName: string): void {
    this.loaded(documentName);
    for (const socketId of this.holders.get(documentName) ?? []) {
      this.sockets.get(socketId)?.documents.delete(documentName);
    }
    this.holders.delete(documentName);
  }

  /**
   * Whether an update adding `growth` may not be taken from this socket now: the documents its
   * person holds would pass their limits together, or the heap is past its budget. (The
   * document's own limits are checked by the caller, which keeps each document's usage.)
   */
  overLimits(socketId: string, growth: DocumentUsage): 'over_capacity' | 'server_busy' | null {
    if (growth.items > 0 && this.heapUsed() > this.limits.heapBudgetBytes) return 'server_busy';
    const userId = this.sockets.get(socketId)?.userId;
    if (userId === undefined) return null;
    const total = this.totalOf(this.documentsOf(userId));
    if (
      total.bytes + growth.bytes > this.limits.personBytes ||
      total.items + growth.items > this.limits.personItems
    ) {
      return 'over_capacity';
    }
    return null;
  }

  /** A message from this socket was refused (malformed, too large, …). */
  noteRefusal(socketId: string): void {
    const userId = this.sockets.get(socketId)?.userId;
    if (userId === undefined) return;
    const recent = this.recentRefusals(userId);
    recent.push(this.now());
    this.refusals.set(userId, recent);
    // People who left with recent refusals are kept until those expire; past a bound, the expired
    // ones are swept.
    if (this.refusals.size > REFUSALS_KEPT_BEFORE_SWEEP) {
      for (const [person] of this.refusals) {
        if (this.recentRefusals(person).length === 0) this.refusals.delete(person);
      }
    }
  }

  /** Whether this socket's person had so many messages refused lately that theirs wait. */
  isSlowedDown(socketId: string): boolean {
    const userId = this.sockets.get(socketId)?.userId;
    return userId !== undefined && this.recentRefusals(userId).length >= REFUSALS_BEFORE_SLOWDOWN;
  }

  private recentRefusals(userId: string): number[] {
    const since = this.now() - SLOWDOWN_WINDOW_MS;
    return (this.refusals.get(userId) ?? []).filter((at) => at > since);
  }

  private documentsOf(userId: string): Set<string> {
    const names = new Set<string>();
    for (const socketId of this.people.get(userId) ?? []) {
      for (const name of this.sockets.get(socketId)?.documents.keys() ?? []) names.add(name);
    }
    return names;
  }

  private totalOf(names: Set<string>): DocumentUsage {
    const total = { bytes: 0, items: 0 };
    for (const name of names) {
      const usage = this.options.usageOf(name);
      total.bytes += usage?.bytes ?? 0;
      total.items += usage?.items ?? 0;
    }
    return total;
  }
}

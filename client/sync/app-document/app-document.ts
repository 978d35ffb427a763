import {
  type AiEdit,
  applyDefinition,
  type AppDefinition,
  suggestEdits,
  DefinitionError,
  DefinitionReader,
  exportDefinition,
  hasDefinition,
  LOCAL_EDIT,
  type MarkedKind,
  markTouched,
  readDefinition,
  type ReadDefinition,
  undoRoots,
} from '@pipit/app-definition';
import { createId, documentName } from '@pipit/protocol';
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import * as Y from 'yjs';
import type { DocumentScope } from '../core/document-names';
import { type OpenDocument, openDocument } from '../core/documents';
import { deviceId } from '../device/device-id';
import { sameSync, type SyncState } from '../core/sync-state';
import { ViewStore } from '../core/view-store';

/** What a person has selected in the editor, shared with collaborators as presence. */
export interface EditorSelection {
  kind: 'screen' | 'component' | 'collection' | 'action' | 'theme' | 'settings';
  id: string;
  /** For a component: the screen it is on (collaborators' previews follow it). */
  screenId?: string;
}

export interface Person {
  /** The account's id: with the device, what makes one presence. */
  id: string;
  name: string;
  color: string;
}

/** Someone else in the document now: one person on one device (their newest tab), not a tab. */
export interface Peer {
  clientId: number;
  name: string;
  color: string;
  selection: EditorSelection | null;
  /**
   * Ask AI for this person: working on a change ("AI for Ada"), or its suggestion in their review
   * ("AI suggestion for Ada, in review"); null otherwise.
   */
  ai: AiState;
}

/** What Ask AI is doing for a person, as their presence says. */
export type AiState = 'working' | 'reviewing' | null;

/** A person's presence as a device publishes it. */
interface PresenceUser extends Person {
  device: string;
  /**
   * When the tab was last used (opened, or its selection changed): of one person's tabs on one
   * device, the one in use is shown, with its selection.
   */
  since: number;
}

export interface AppDocumentView {
  /**
   * `loading`: reading this device's copy; `waiting`: nothing here yet, the server's copy is on its
   * way; `not-on-device`: nothing here and no connection to fetch it; `ready`: `definition` is set.
   */
  phase: 'loading' | 'waiting' | 'not-on-device' | 'ready';
  definition: ReadDefinition | null;
  sync: SyncState;
  readOnly: boolean;
  /** Changes made on this device that the server refused for good, and that were removed. */
  refusedChanges: number;
  canUndo: boolean;
  canRedo: boolean;
  peers: Peer[];
}

/** Edits the document. Every operation comes from `@pipit/app-definition`. */
export interface AppDocumentHandle {
  /** Runs a typed operation on the live document (one undoable step). */
  run<A extends unknown[], R>(operation: (doc: Y.Doc, ...args: A) => R, ...args: A): R;
  /** Undoes this person's last edit here; never a collaborator's. */
  undo(): void;
  redo(): void;
  /**
   * Ends the current undo step: the next edit starts a new one even within the capture time.
   * The editor calls it before every edit but the next keystroke in the same text field, so a
   * quick series of separate actions never undoes as one.
   */
  stopCapturing(): void;
  setSelection(selection: EditorSelection | null): void;
  /** The current definition as an export file (JSON). */
  exportJson(): string;
  /**
   * What Ask AI's operations would make of the app as it is now, without changing it: the app
   * (`base`) and the suggestion (`proposed`), to review part by part and take in with
   * `replaceDefinition` (a merge of the parts taken into the app as it is then). A change that no
   * longer fits is a DefinitionError.
   */
  suggestAiEdits(operations: AiEdit[]): { base: AppDefinition; proposed: AppDefinition };
  /**
   * Makes the app equal to `target` (a restore, a pulled update, a conflict resolved the other
   * way) as one change of mine: collaborators get it live, my Undo takes it back in one step.
   * What it changes is marked as `kind`'s (Ask AI's suggestion, a restore, a pull): the server
   * credits it to "AI for {me}", my restore or my pull (docs/product/history.md#who-changed-what).
   */
  replaceDefinition(
    target: ReadDefinition | AppDefinition,
    kind: MarkedKind,
    options?: {
      /**
       * False: Undo does not take it back (a draft's Update draft, whose base moved with it on
       * the server: undone, the app's changes would read as the draft's own undoing them).
       */
      undoable?: boolean;
    },
  ): void;
  /**
   * Tells collaborators what Ask AI is doing for this person (presence: "AI for Ada", "AI
   * suggestion for Ada, in review").
   */
  setAi(state: AiState): void;
  /** The person has read the note about their refused changes. */
  dismissRefusedChanges(): void;
}

function sameView(a: AppDocumentView, b: AppDocumentView): boolean {
  return (
    a.phase === b.phase &&
    a.definition === b.definition &&
    sameSync(a.sync, b.sync) &&
    a.readOnly === b.readOnly &&
    a.refusedChanges === b.refusedChanges &&
    a.canUndo === b.canUndo &&
    a.canRedo === b.canRedo &&
    a.peers.length === b.peers.length &&
    a.peers.every((peer, i) => {
      const other = b.peers[i];
      return (
        other !== undefined &&
        peer.clientId === other.clientId &&
        peer.name === other.name &&
        peer.color === other.color &&
        peer.selection?.kind === other.selection?.kind &&
        peer.selection?.id === other.selection?.id &&
        peer.selection?.screenId === other.selection?.screenId &&
        peer.ai === other.ai
      );
    })
  );
}

/** The origin of this person's edits that their Undo leaves alone (see `replaceDefinition`). */
const NOT_UNDONE = Symbol('pipit:not-undone');

/** Edits within this many milliseconds undo together (typing a word is one step). */
const UNDO_CAPTURE_MS = 600;

class AppDocumentStore extends ViewStore<AppDocumentView> {
  private readonly undoManager: Y.UndoManager;
  private localLoaded = false;
  private disposed = false;
  /** The last definition read, and whether the document changed since. */
  private definition: ReadDefinition | null = null;
  private stale = true;
  /** Reads again only the components that changed (a big app is read after every edit). */
  private readonly reader: DefinitionReader;

  constructor(
    private readonly opened: OpenDocument,
    person: Person | null,
    /** This device's copy was replaced (refused changes removed): open the document again. */
    private readonly onReplaced: () => void,
  ) {
    super();
    this.presence = person ? { ...person, device: deviceId(), since: Date.now() } : null;
    const doc = opened.doc;
    this.reader = new DefinitionReader(doc);
    this.undoManager = new Y.UndoManager(undoRoots(doc), {
      trackedOrigins: new Set([LOCAL_EDIT]),
      captureTimeout: UNDO_CAPTURE_MS,
    });
    // Opened ahead (the editor's route), the device's copy may be in already.
    this.localLoaded = opened.isLocal();
    this.view = this.compute();
    doc.on('afterTransaction', this.onTransaction);
    this.undoManager.on('stack-item-added', this.update);
    this.undoManager.on('stack-item-popped', this.update);
    this.unsubscribe = opened.subscribe(this.onSyncChange);
    void opened.whenLocal.then(() => {
      this.localLoaded = true;
      this.update();
    });
  }

  private readonly unsubscribe: () => void;
  private awarenessBound: ReturnType<OpenDocument['awareness']> = null;
  /** What this tab publishes as presence; null in the demo (no one to share it with). */
  private presence: PresenceUser | null;

  private readonly onTransaction = (transaction: Y.Transaction) => {
    if (transaction.changed.size > 0) this.stale = true;
    this.update();
  };

  /** Sync state and presence changes (the provider's awareness events arrive here too). */
  private readonly onSyncChange = () => {
    if (this.opened.isReplaced()) {
      this.onReplaced();
      return;
    }
    const awareness = this.opened.awareness();
    if (awareness && awareness !== this.awarenessBound) {
      this.awarenessBound = awareness;
      if (this.presence) awareness.setLocalStateField('user', this.presence);
    }
    this.update();
  };

  private hasDefinition() {
    return hasDefinition(this.opened.doc);
  }

  private compute(): AppDocumentView {
    const sync = this.opened.sync();
    const readOnly = this.opened.isReadOnly();
    const ready = this.localLoaded && this.hasDefinition();
    let phase: AppDocumentView['phase'] = 'loading';
    if (ready) phase = 'ready';
    else if (this.localLoaded) {
      phase =
        sync.kind === 'offline' || sync.kind === 'error' || sync.kind === 'local'
          ? 'not-on-device'
          : 'waiting';
    }
    if (ready && (this.stale || !this.definition)) {
      this.definition = this.reader.read();
      this.stale = false;
    }
    return {
      phase,
      definition: ready ? this.definition : null,
      sync,
      readOnly,
      refusedChanges: this.opened.refusedChanges(),
      canUndo: !readOnly && this.undoManager.canUndo(),
      canRedo: !readOnly && this.undoManager.canRedo(),
      peers: this.peers(),
    };
  }

  /**
   * Everyone else here, one presence per person and device: a tab of mine on this device is me
   * (another tab, or the one before a reload whose connection the server has not seen close yet),
   * and of someone's tabs on one device only the newest shows.
   */
  private peers(): Peer[] {
    const awareness = this.opened.awareness();
    if (!awareness) return [];
    const me = this.presence;
    const newest = new Map<string, { peer: Peer; since: number }>();
    awareness.getStates().forEach((state, clientId) => {
      if (clientId === this.opened.doc.clientID) return;
      const user = (state as { user?: Partial<PresenceUser> }).user;
      if (typeof user?.name !== 'string' || typeof user.color !== 'string') return;
      const device = typeof user.device === 'string' ? user.device : `client:${clientId}`;
      if (me && user.id === me.id && device === me.device) return;
      const selection = (state as { selection?: EditorSelection | null }).selection ?? null;
      const said = (state as { ai?: unknown }).ai;
      const ai: AiState = said === 'working' || said === 'reviewing' ? said : null;
      const since = typeof user.since === 'number' ? user.since : 0;
      const key = `${String(user.id)}|${device}`;
      const known = newest.get(key);
      if (
        known &&
        (known.since > since || (known.since === since && known.peer.clientId > clientId))
      ) {
        return;
      }
      newest.set(key, {
        peer: { clientId, name: user.name, color: user.color, selection, ai },
        since,
      });
    });
    return [...newest.values()].map(({ peer }) => peer).sort((a, b) => a.clientId - b.clientId);
  }

  private readonly update = () => {
    if (this.disposed) return;
    const next = this.compute();
    // A transaction and the sync notice it causes arrive together: render once, not twice.
    if (sameView(next, this.view)) return;
    this.publish(next);
  };

  readonly handle: AppDocumentHandle = {
    run: (operation, ...args) => {
      if (this.opened.isReadOnly()) {
        throw new DefinitionError('You can view this app but not edit it.');
      }
      return operation(this.opened.doc, ...args);
    },
    undo: () => {
      this.undoManager.undo();
    },
    redo: () => {
      this.undoManager.redo();
    },
    stopCapturing: () => {
      this.undoManager.stopCapturing();
    },
    setSelection: (selection) => {
      const awareness = this.opened.awareness();
      if (!awareness) return;
      if (!this.presence) {
        awareness.setLocalStateField('selection', selection);
        return;
      }
      // Selecting is using this tab: it becomes the one collaborators see (one message, not two).
      this.presence = { ...this.presence, since: Date.now() };
      awareness.setLocalState({ ...awareness.getLocalState(), user: this.presence, selection });
    },
    exportJson: () => exportDefinition(this.view.definition ?? readDefinition(this.opened.doc)),
    suggestAiEdits: (operations) => {
      if (this.opened.isReadOnly()) {
        throw new DefinitionError('You can view this app but not edit it.');
      }
      return suggestEdits(this.opened.doc, operations, createId);
    },
    replaceDefinition: (target, kind, options = {}) => {
      if (this.opened.isReadOnly()) {
        throw new DefinitionError('You can view this app but not edit it.');
      }
      this.undoManager.stopCapturing();
      const { doc } = this.opened;
      // Its own message, neither batched with the edits before it nor with the next (another
      // marked change a moment later): the server reads one mark per transaction.
      this.opened.flush();
      const origin = options.undoable === false ? NOT_UNDONE : LOCAL_EDIT;
      doc.transact((tr) => {
        applyDefinition(doc, target, origin);
        markTouched(doc, tr, kind);
      }, origin);
      this.opened.flush();
      this.undoManager.stopCapturing();
    },
    setAi: (state) => {
      this.opened.awareness()?.setLocalStateField('ai', state);
    },
    dismissRefusedChanges: () => {
      this.opened.forgetRefusedChanges();
      this.update();
    },
  };

  connect() {
    this.opened.connect();
  }

  dispose() {
    this.disposed = true;
    this.opened.doc.off('afterTransaction', this.onTransaction);
    this.reader.destroy();
    this.unsubscribe();
    this.undoManager.destroy();
    this.opened.release();
  }
}

/**
 * The live `app/{id}` document for the editor: its definition (read tolerantly), sync state,
 * presence and per-person undo. Opens the copy on this device first, then syncs when `connect`.
 */
export function useAppDocument(
  appId: string,
  options: {
    scope: DocumentScope;
    person: Person | null;
    connect: boolean;
    /** A draft of the app (`draft/{appId}/{draftId}`, docs/product/drafts.md) instead of the app. */
    draftId?: string | null;
  },
): { view: AppDocumentView; handle: AppDocumentHandle } {
  const { scope, person, connect } = options;
  const draftId = options.draftId ?? null;
  const scopeId = scope.kind === 'demo' ? 'demo' : scope.accountId;
  const personKey = person ? `${person.id}|${person.name}|${person.color}` : '';
  const [store, setStore] = useState<AppDocumentStore | null>(null);
  // Bumped when this device's copy is replaced by the server's (refused changes removed).
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    const name = documentName(draftId ? { kind: 'draft', appId, draftId } : { kind: 'app', appId });
    const opened = openDocument(name, scope, { connect: false });
    const created = new AppDocumentStore(opened, person, () => setGeneration((n) => n + 1));
    setStore(created);
    return () => created.dispose();
    // `scope` and `person` are compared by their identity-free keys, not by object identity.
  }, [appId, draftId, scopeId, personKey, generation]);
  // Connecting later (an app made offline that has just registered) keeps the same store, and so
  // this person's undo history.
  useEffect(() => {
    if (store && connect) store.connect();
  }, [store, connect]);
  const fallback = useMemo(() => createLoadingStore(), []);
  const active = store ?? fallback;
  const view = useSyncExternalStore(active.subscribe, active.getView);
  return { view, handle: active.handle };
}

const LOADING_VIEW: AppDocumentView = {
  phase: 'loading',
  definition: null,
  sync: { kind: 'connecting', pending: 0 },
  readOnly: true,
  refusedChanges: 0,
  canUndo: false,
  canRedo: false,
  peers: [],
};

function createLoadingStore(): Pick<AppDocumentStore, 'subscribe' | 'getView' | 'handle'> {
  const refuse = () => {
    throw new Error('The app is still loading.');
  };
  return {
    subscribe: () => () => undefined,
    getView: () => LOADING_VIEW,
    handle: {
      run: refuse,
      undo: () => undefined,
      redo: () => undefined,
      stopCapturing: () => undefined,
      setSelection: () => undefined,
      exportJson: refuse,
      suggestAiEdits: refuse,
      replaceDefinition: refuse,
      setAi: () => undefined,
      dismissRefusedChanges: () => undefined,
    },
  };
}

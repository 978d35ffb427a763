import * as React from 'react';
import { Fragment, isValidElement, type ReactElement, type ReactNode, Suspense } from 'react';

/**
 * react-dom is not a dependency of @pipit/runtime (and no DOM is installed for tests), so these tests
 * expand React elements themselves: function components are called with a small hook dispatcher
 * (state, reducer, ref, memo, callback, effect, id, external store) installed the way a renderer
 * installs React's own; class components get `getDerivedStateFromProps`, `render` and — when a
 * descendant throws — `getDerivedStateFromError`, as React does. The result is a tree of host
 * elements to query, and HTML escaped like React's own server renderer.
 *
 * `renderStatic` is one pass with no effects (like server rendering). `createRoot` keeps hook state
 * by position in the tree (the component's path, with keys), runs effects after each render with
 * their cleanups, and renders again when state changed: tests call event handlers from the tree
 * (`onClick`, `onChange`, `onSubmit`) with plain objects and look at the next tree. It is test
 * support, not a renderer: no context providers, no concurrent features, and a `memo` component
 * renders as the one it wraps, every time. A `lazy` component still loading shows its nearest
 * `Suspense` fallback; `act` waits for it to come and renders again (a list's views are lazy).
 */
export interface HostNode {
  tag: string;
  props: Record<string, unknown>;
  children: StaticNode[];
}
export type StaticNode = string | HostNode;

interface ClassInstance {
  props: unknown;
  state: Record<string, unknown>;
  render(): ReactNode;
}

interface ClassType {
  new (props: unknown): ClassInstance;
  prototype: { isReactComponent?: unknown };
  getDerivedStateFromProps?: (props: unknown, state: unknown) => Record<string, unknown> | null;
  getDerivedStateFromError?: (error: unknown) => Record<string, unknown>;
}

type Deps = readonly unknown[] | undefined;

interface EffectSlot {
  deps: Deps;
  ran: boolean;
  cleanup: (() => void) | undefined;
}

interface Instance {
  hooks: unknown[];
  effects: EffectSlot[];
  subscriptions: Array<() => void>;
  classInstance?: ClassInstance;
}

const internals = (
  React as unknown as {
    __CLIENT_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE: { H: unknown };
  }
).__CLIENT_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE;

const depsChanged = (a: Deps, b: Deps) =>
  !a || !b || a.length !== b.length || a.some((value, i) => !Object.is(value, b[i]));

/** How many renders a state change may cause in a row before it counts as a loop. */
const MAX_RENDERS = 25;

/**
 * What a host element's `ref` receives: enough of an element for the runtime's focus management —
 * `focus()` (recorded as the root's focused node) and `querySelector('[attr="value"]')`.
 */
export interface FakeElement {
  focus(): void;
  querySelector(selector: string): FakeElement | null;
}

class Renderer {
  private instances = new Map<string, Instance>();
  private nodes = new Map<string, HostNode>();
  private elements = new Map<string, FakeElement>();
  private focusedPath: string | null = null;

  /** The focused node as it is in the latest render (null when it is gone). */
  get focused(): HostNode | null {
    return this.focusedPath ? (this.nodes.get(this.focusedPath) ?? null) : null;
  }
  private seen = new Set<string>();
  private pending: Array<{ slot: EffectSlot; create: () => unknown; deps: Deps }> = [];
  private nextId = 0;
  dirty = false;
  /** What lazy components of the last render were waiting for. */
  suspended: Array<PromiseLike<unknown>> = [];

  constructor(private readonly live: boolean) {}

  render(node: ReactNode): StaticNode[] {
    this.nodes = new Map();
    this.seen = new Set();
    this.pending = [];
    this.dirty = false;
    this.suspended = [];
    const tree = this.expand(node, 'root');
    for (const [path, instance] of this.instances) {
      if (!this.seen.has(path)) {
        this.unmountInstance(instance);
        this.instances.delete(path);
      }
    }
    for (const { slot, create, deps } of this.pending) {
      slot.cleanup?.();
      const cleanup = create();
      slot.cleanup = typeof cleanup === 'function' ? (cleanup as () => void) : undefined;
      slot.deps = deps;
      slot.ran = true;
    }
    return tree;
  }

  unmountAll(): void {
    for (const instance of this.instances.values()) this.unmountInstance(instance);
    this.instances.clear();
  }

  private unmountInstance(instance: Instance): void {
    for (const effect of instance.effects) effect?.cleanup?.();
    for (const unsubscribe of instance.subscriptions) unsubscribe();
  }

  private instanceAt(path: string): Instance {
    this.seen.add(path);
    let instance = this.instances.get(path);
    if (!instance) {
      instance = { hooks: [], effects: [], subscriptions: [] };
      this.instances.set(path, instance);
    }
    return instance;
  }

  private dispatcher(instance: Instance) {
    let index = 0;
    const live = this.live;
    const markDirty = () => {
      this.dirty = true;
    };
    const slot = <T>(init: () => T): T => {
      const at = index++;
      if (!(at in instance.hooks)) instance.hooks[at] = init();
      return instance.hooks[at] as T;
    };
    const effect = (create: () => unknown, deps: Deps) => {
      const at = index++;
      const s = (instance.effects[at] ??= { deps: undefined, ran: false, cleanup: undefined });
      if (live && (!s.ran || depsChanged(s.deps, deps)))
        this.pending.push({ slot: s, create, deps });
    };
    const memo = <T>(create: () => T, deps: Deps): T => {
      const s = slot(() => ({ ready: false, deps: undefined as Deps, value: undefined as T }));
      if (!s.ready || depsChanged(s.deps, deps))
        Object.assign(s, { ready: true, deps, value: create() });
      return s.value;
    };
    return {
      useState<T>(initial: T | (() => T)) {
        const s = slot(() => {
          const state = {
            value: typeof initial === 'function' ? (initial as () => T)() : initial,
            set: (next: T | ((current: T) => T)) => {
              state.value =
                typeof next === 'function' ? (next as (current: T) => T)(state.value) : next;
              markDirty();
            },
          };
          return state;
        });
        return [s.value, s.set];
      },
      useReducer<S, A>(
        reducer: (state: S, action: A) => S,
        arg: unknown,
        init?: (a: unknown) => S,
      ) {
        const s = slot(() => {
          const state = {
            value: init ? init(arg) : (arg as S),
            reducer,
            dispatch: (action: A) => {
              state.value = state.reducer(state.value, action);
              markDirty();
            },
          };
          return state;
        });
        s.reducer = reducer;
        return [s.value, s.dispatch];
      },
      useRef: <T>(initial: T) => slot(() => ({ current: initial })),
      useMemo: memo,
      useCallback: <T>(callback: T, deps: Deps) => memo(() => callback, deps),
      useEffect: effect,
      useLayoutEffect: effect,
      useInsertionEffect: effect,
      useImperativeHandle: () => void index++,
      useId: () => slot(() => `«r${(this.nextId++).toString(36)}»`),
      useSyncExternalStore<T>(
        subscribe: (onChange: () => void) => () => void,
        getSnapshot: () => T,
      ) {
        slot(() => {
          if (live) instance.subscriptions.push(subscribe(markDirty));
          return true;
        });
        return getSnapshot();
      },
      useContext: (context: { _currentValue: unknown }) => context._currentValue,
      useDebugValue: () => undefined,
      useDeferredValue: <T>(value: T) => value,
      useTransition: () => [false, (fn: () => void) => fn()],
    };
  }

  private callComponent(path: string, render: () => ReactNode): ReactNode {
    const instance = this.instanceAt(path);
    const previous = internals.H;
    internals.H = this.dispatcher(instance);
    try {
      return render();
    } finally {
      internals.H = previous;
    }
  }

  private attachRef(ref: unknown, path: string): void {
    if (!ref) return;
    let element = this.elements.get(path);
    if (!element) {
      const nodeAt = () => this.nodes.get(path);
      const fake: FakeElement = {
        focus: () => {
          if (nodeAt()) this.focusedPath = path;
        },
        querySelector: (selector) => {
          const match = /^\[([\w-]+)="(.*)"\]$/.exec(selector);
          const node = nodeAt();
          if (!match || !node) throw new Error(`Unsupported selector ${selector}`);
          const [, name, value] = match;
          const found = findAll(node.children, (n) => String(n.props[name ?? '']) === value)[0];
          if (!found) return null;
          const foundPath = [...this.nodes].find(([, n]) => n === found)?.[0];
          return foundPath ? this.elementAt(foundPath) : null;
        },
      };
      element = fake;
      this.elements.set(path, element);
    }
    if (typeof ref === 'function') ref(element);
    else (ref as { current: unknown }).current = element;
  }

  private elementAt(path: string): FakeElement {
    this.attachRef({ current: null }, path);
    return this.elements.get(path) as FakeElement;
  }

  private expand(node: ReactNode, path: string): StaticNode[] {
    if (node === null || node === undefined || typeof node === 'boolean') return [];
    if (typeof node === 'string' || typeof node === 'number' || typeof node === 'bigint')
      return [String(node)];
    if (Array.isArray(node)) {
      return node.flatMap((child: ReactNode, i) => {
        const key = isValidElement(child) && child.key !== null ? `k${child.key}` : String(i);
        return this.expand(child, `${path}.${key}`);
      });
    }
    if (!isValidElement(node)) throw new Error(`Cannot render ${String(node)}`);
    const element = node as ReactElement<Record<string, unknown>>;
    const { type, props } = element;
    if (type === Fragment) return this.expand(props.children as ReactNode, `${path}~`);
    if (type === Suspense) {
      try {
        return this.expand(props.children as ReactNode, `${path}~s`);
      } catch (error) {
        if (!isThenable(error)) throw error;
        this.suspended.push(error);
        return this.expand(props.fallback as ReactNode, `${path}~f`);
      }
    }
    if (isLazy(type)) {
      // Its component once loaded; until then React's initializer throws what it waits for.
      return this.expand({ ...element, type: type._init(type._payload) } as ReactElement, path);
    }
    if (typeof type === 'string') {
      if ('dangerouslySetInnerHTML' in props) throw new Error('dangerouslySetInnerHTML is used');
      const own = `${path}>${type}`;
      const host: HostNode = {
        tag: type,
        props,
        children: this.expand(props.children as ReactNode, own),
      };
      this.nodes.set(own, host);
      this.attachRef(props.ref, own);
      return [host];
    }
    if (isMemo(type)) {
      // memo(): rendered as the component it wraps, every time (no bail-out here).
      return this.expand({ ...element, type: type.type } as ReactElement, path);
    }
    if (typeof type !== 'function') throw new Error(`Unsupported element type ${String(type)}`);
    const own = `${path}:${type.name || 'Component'}`;
    if ((type as unknown as ClassType).prototype?.isReactComponent) {
      const Class = type as unknown as ClassType;
      const holder = this.instanceAt(own);
      const instance = (holder.classInstance ??= new Class(props));
      instance.props = props;
      const derived = Class.getDerivedStateFromProps?.(props, instance.state);
      if (derived) instance.state = { ...instance.state, ...derived };
      try {
        return this.expand(instance.render(), own);
      } catch (error) {
        if (!Class.getDerivedStateFromError) throw error;
        instance.state = { ...instance.state, ...Class.getDerivedStateFromError(error) };
        return this.expand(instance.render(), own);
      }
    }
    const output = this.callComponent(own, () => (type as (p: unknown) => ReactNode)(props));
    return this.expand(output, own);
  }
}

const MEMO = Symbol.for('react.memo');
const LAZY = Symbol.for('react.lazy');

function isLazy(type: unknown): type is { _payload: unknown; _init(payload: unknown): unknown } {
  return (
    typeof type === 'object' && type !== null && (type as { $$typeof?: unknown }).$$typeof === LAZY
  );
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

function isMemo(type: unknown): type is { type: unknown } {
  return (
    typeof type === 'object' && type !== null && (type as { $$typeof?: unknown }).$$typeof === MEMO
  );
}

function escape(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

const ATTRIBUTE_NAMES: Record<string, string> = { className: 'class', htmlFor: 'for' };

export function toHtml(nodes: StaticNode[]): string {
  return nodes
    .map((node) => {
      if (typeof node === 'string') return escape(node);
      const attributes = Object.entries(node.props)
        .filter(
          ([key, value]) => key !== 'children' && key !== 'ref' && typeof value !== 'function',
        )
        .filter(([, value]) => value !== undefined && value !== null && value !== false)
        .map(([key, value]) => {
          const name = ATTRIBUTE_NAMES[key] ?? key;
          if (value === true) return ` ${name}`;
          if (typeof value === 'object') return ` ${name}="${escape(JSON.stringify(value))}"`;
          return ` ${name}="${escape(String(value))}"`;
        })
        .join('');
      return `<${node.tag}${attributes}>${toHtml(node.children)}</${node.tag}>`;
    })
    .join('');
}

/** One pass, no effects: what a server render would produce. */
export function renderStatic(node: ReactNode): { tree: StaticNode[]; html: string } {
  const tree = new Renderer(false).render(node);
  return { tree, html: toHtml(tree) };
}

export function expand(node: ReactNode): StaticNode[] {
  return new Renderer(false).render(node);
}

export interface TestRoot {
  /** The latest tree. */
  readonly tree: StaticNode[];
  readonly html: string;
  /** Renders again (with a new element, or the same one), then until no state changes. */
  render(node?: ReactNode): StaticNode[];
  /** The host node last given focus through a ref (in its latest version), or null. */
  readonly focused: HostNode | null;
  /**
   * Runs `fn` (e.g. a handler from the tree), lets promises settle, and renders again; then, while
   * a lazy component is loading, waits for it and renders again.
   */
  act(fn: () => unknown): Promise<StaticNode[]>;
  unmount(): void;
}

/** A tree that keeps state between renders and runs effects: for interaction tests. */
export function createRoot(initial: ReactNode): TestRoot {
  const renderer = new Renderer(true);
  let element = initial;
  let tree: StaticNode[] = [];
  const render = (node?: ReactNode) => {
    if (node !== undefined) element = node;
    let renders = 0;
    do {
      if (++renders > MAX_RENDERS) throw new Error('Too many renders: a state update loops.');
      tree = renderer.render(element);
    } while (renderer.dirty);
    return tree;
  };
  render();
  return {
    get tree() {
      return tree;
    },
    get html() {
      return toHtml(tree);
    },
    get focused() {
      return renderer.focused;
    },
    render,
    async act(fn) {
      await fn();
      // Several turns: an action's steps await one another.
      for (let i = 0; i < 10; i += 1) await Promise.resolve();
      render();
      for (let i = 0; i < 5 && renderer.suspended.length > 0; i += 1) {
        await Promise.all(renderer.suspended);
        render();
      }
      return tree;
    },
    unmount: () => renderer.unmountAll(),
  };
}

export function findAll(nodes: StaticNode[], test: (node: HostNode) => boolean): HostNode[] {
  return nodes.flatMap((node) =>
    typeof node === 'string'
      ? []
      : [...(test(node) ? [node] : []), ...findAll(node.children, test)],
  );
}

export function textOf(nodes: StaticNode[]): string {
  return nodes.map((n) => (typeof n === 'string' ? n : textOf(n.children))).join('');
}

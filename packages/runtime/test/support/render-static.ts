import { Fragment, isValidElement, type ReactElement, type ReactNode } from 'react';

/**
 * react-dom is not a dependency of @pipit/runtime, so these tests expand React elements
 * themselves: function components are called, class components get `getDerivedStateFromProps`,
 * `render` and — when a descendant throws — `getDerivedStateFromError`, as React does. It works
 * because the runtime's components use no hooks and no context. The result is a tree of host
 * elements to query, and HTML escaped like React's own server renderer.
 */
export interface HostNode {
  tag: string;
  props: Record<string, unknown>;
  children: StaticNode[];
}
export type StaticNode = string | HostNode;

interface ClassType {
  new (props: unknown): {
    props: unknown;
    state: Record<string, unknown>;
    render(): ReactNode;
  };
  prototype: { isReactComponent?: unknown };
  getDerivedStateFromProps?: (props: unknown, state: unknown) => Record<string, unknown> | null;
  getDerivedStateFromError?: (error: unknown) => Record<string, unknown>;
}

export function expand(node: ReactNode): StaticNode[] {
  if (node === null || node === undefined || typeof node === 'boolean') return [];
  if (typeof node === 'string' || typeof node === 'number' || typeof node === 'bigint')
    return [String(node)];
  if (Array.isArray(node)) return node.flatMap((child: ReactNode) => expand(child));
  if (!isValidElement(node)) throw new Error(`Cannot render ${String(node)}`);
  const element = node as ReactElement<Record<string, unknown>>;
  const { type, props } = element;
  if (type === Fragment) return expand(props.children as ReactNode);
  if (typeof type === 'string') {
    if ('dangerouslySetInnerHTML' in props) throw new Error('dangerouslySetInnerHTML is used');
    return [{ tag: type, props, children: expand(props.children as ReactNode) }];
  }
  if (typeof type === 'function' && (type as unknown as ClassType).prototype?.isReactComponent) {
    const Class = type as unknown as ClassType;
    const instance = new Class(props);
    instance.props = props;
    const derived = Class.getDerivedStateFromProps?.(props, instance.state);
    if (derived) instance.state = { ...instance.state, ...derived };
    try {
      return expand(instance.render());
    } catch (error) {
      if (!Class.getDerivedStateFromError) throw error;
      instance.state = { ...instance.state, ...Class.getDerivedStateFromError(error) };
      return expand(instance.render());
    }
  }
  if (typeof type === 'function') return expand((type as (p: unknown) => ReactNode)(props));
  throw new Error(`Unsupported element type ${String(type)}`);
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
        .filter(([key, value]) => key !== 'children' && typeof value !== 'function')
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

export function renderStatic(node: ReactNode): { tree: StaticNode[]; html: string } {
  const tree = expand(node);
  return { tree, html: toHtml(tree) };
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

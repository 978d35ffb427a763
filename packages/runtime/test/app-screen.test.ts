import { type Component, COMPONENT_TYPES, PRESET_TOKENS } from '@pipit/app-definition';
import { createElement } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { AppScreen, type AppScreenProps } from '../src/index';
import { component, definitionWith, EVERY_TYPE } from './support/fixture';
import { createRoot, findAll, type HostNode, renderStatic, textOf } from './support/render-static';
import { loadAllParts } from './support/parts';

// Charts, timers, views and the photo picker are chunks of their own (parts.ts).
await loadAllParts();

function render(props: Partial<AppScreenProps> & Pick<AppScreenProps, 'definition'>) {
  return renderStatic(createElement(AppScreen, { screenId: 'home', colorMode: 'light', ...props }));
}

const byComponent = (id: string) => (n: HostNode) => n.props['data-component-id'] === id;

describe('AppScreen renders every component type', () => {
  const definition = definitionWith(COMPONENT_TYPES.map((type) => EVERY_TYPE[type]));
  const { tree, html } = render({ definition });
  const inside = (id: string) => findAll(tree, byComponent(id))[0]?.children ?? [];
  const tags = (id: string, tag: string) => findAll(inside(id), (n) => n.tag === tag);

  it('renders one frame per component and no placeholder', () => {
    expect(COMPONENT_TYPES.length).toBe(15);
    for (const type of COMPONENT_TYPES) {
      expect(findAll(tree, byComponent(EVERY_TYPE[type].id)), type).toHaveLength(1);
    }
    expect(html).not.toContain('could not be shown');
  });

  it('shows the screen title as the level-2 heading', () => {
    expect(textOf(findAll(tree, (n) => n.tag === 'h2'))).toBe('Home');
  });

  it('renders static components', () => {
    expect(textOf(tags('c-heading', 'h3'))).toBe('My tasks');
    expect(textOf(tags('c-text', 'strong'))).toBe('there');
    expect(tags('c-image', 'img')[0]?.props).toMatchObject({
      src: 'https://example.com/a.png',
      alt: 'A plant',
    });
    expect(textOf(tags('c-button', 'button'))).toBe('Next');
    expect(tags('c-divider', 'hr')).toHaveLength(1);
    expect(tags('c-link', 'a')[0]?.props).toMatchObject({
      href: 'https://example.com/docs',
      target: '_blank',
      rel: 'noopener noreferrer',
    });
    expect(textOf(inside('c-counter'))).toContain('Glasses');
    expect(tags('c-counter', 'button')[1]?.props['aria-label']).toBe('Increase by 2');
    expect(textOf(inside('c-timer'))).toContain('1:02:05');
  });

  it('renders the AI component once its own chunk is here, a placeholder its size until then', async () => {
    expect(findAll(inside('c-ai'), (n) => n.props['aria-busy'] === 'true')).toHaveLength(1);
    const root = createRoot(
      createElement(AppScreen, { screenId: 'home', colorMode: 'light', definition }),
    );
    await vi.waitFor(async () => {
      await root.act(() => undefined);
      const ai = findAll(root.tree, byComponent('c-ai'))[0]?.children ?? [];
      expect(textOf(ai)).toContain('Summarise');
      expect(textOf(ai)).toContain('AI runs when the app is open');
    });
  });

  it('renders data components from the creator records', () => {
    expect(tags('c-list', 'li').map((li) => textOf([li]))).toEqual([
      'Water plantsHome',
      'Write reportWork',
      'Call AnaHome',
      'Plan tripHome',
    ]);
    expect(textOf(tags('c-detail', 'dd'))).toBe('Water plants10Yes');
    const checkboxes = tags('c-checklist', 'input');
    expect(checkboxes.map((c) => c.props.defaultChecked)).toEqual([true, false, false, true]);
    expect(textOf(inside('c-stat'))).toContain('105');
  });

  it('renders a form with a labelled, disabled control per field type', () => {
    const labels = tags('c-form', 'label');
    expect(labels).toHaveLength(8);
    for (const label of labels) {
      const controls = findAll([label], (n) => ['input', 'select', 'textarea'].includes(n.tag));
      expect(controls).toHaveLength(1);
      expect(controls[0]?.props.disabled).toBe(true);
    }
    const types = tags('c-form', 'input').map((i) => i.props.type);
    expect(types).toEqual(['text', 'number', 'checkbox', 'date', 'url', 'email']);
    expect(tags('c-form', 'select')).toHaveLength(1);
    expect(tags('c-form', 'textarea')).toHaveLength(1);
    expect(tags('c-form', 'button')[0]?.props.type).toBe('button');
  });

  it('draws the chart as an SVG image with a summary', () => {
    const svg = tags('c-chart', 'svg')[0];
    expect(svg?.props.role).toBe('img');
    expect(svg?.props['aria-label']).toBe('Pie chart of Tasks: Home 3, Work 1');
    expect(findAll(svg ? [svg] : [], (n) => n.tag === 'path')).toHaveLength(2);
  });

  it.each(['bar', 'line'] as const)('draws a %s chart', (kind) => {
    const chart = component('c', 'chart', { kind, collectionId: 'tasks', labelFieldId: 'area' });
    const { tree: t } = render({ definition: definitionWith([chart]) });
    const shapes = findAll(t, (n) => n.tag === (kind === 'bar' ? 'rect' : 'circle'));
    expect(shapes).toHaveLength(2);
  });
});

describe('AppScreen isolates broken components', () => {
  it('renders an invalid component as a placeholder', () => {
    const definition = definitionWith([
      { id: 'x', type: 'invalid', originalType: 'carousel', problem: 'This kind is not known.' },
      EVERY_TYPE.heading,
    ]);
    const { html } = render({ definition });
    expect(html).toContain('This component could not be shown: this kind is not known.');
    expect(html).toContain('My tasks');
  });

  it('renders a component that throws as a placeholder', () => {
    const broken = { id: 'boom', type: 'heading', props: null } as unknown as Component;
    const { html } = render({ definition: definitionWith([broken, EVERY_TYPE.divider]) });
    expect(html).toContain('This component could not be shown: it failed to render.');
    expect(html).toContain('<hr');
  });

  it('never renders unsafe URLs that bypassed the schema', () => {
    const link = component('l', 'link');
    const image = component('i', 'image');
    Object.assign(link.props, { url: 'javascript:alert(1)', label: 'Go' });
    Object.assign(image.props, { src: 'data:image/svg+xml,<svg onload=alert(1)>' });
    const { tree, html } = render({ definition: definitionWith([link, image]) });
    expect(findAll(tree, (n) => n.tag === 'a' || n.tag === 'img')).toEqual([]);
    expect(html).not.toContain('javascript:');
    expect(html).toContain('This image address cannot be shown');
  });
});

describe('AppScreen selection, presence and navigation', () => {
  const definition = definitionWith([EVERY_TYPE.heading, EVERY_TYPE.button, EVERY_TYPE.ai]);

  it('makes components focusable and selectable only when onSelectComponent is given', () => {
    expect(findAll(render({ definition }).tree, (n) => n.props.tabIndex === 0)).toEqual([]);
    const onSelect = vi.fn();
    const { tree } = render({
      definition,
      selectedComponentId: 'c-button',
      onSelectComponent: onSelect,
    });
    const frames = findAll(tree, (n) => n.props.tabIndex === 0);
    expect(frames.map((f) => f.props['aria-label'])).toEqual([
      'Select heading component',
      'Select button component',
      'Select AI component',
    ]);
    expect(frames.map((f) => f.props['aria-current'])).toEqual([undefined, 'true', undefined]);
    expect(String(frames[1]?.props.className)).toContain('rt-frame-selected');

    const onKeyDown = frames[0]?.props.onKeyDown as (e: object) => void;
    const key = (k: string, self = true) => {
      const target = {};
      const preventDefault = vi.fn();
      onKeyDown({ key: k, target, currentTarget: self ? target : {}, preventDefault });
      return preventDefault;
    };
    expect(key('Enter')).toHaveBeenCalled();
    expect(key(' ')).toHaveBeenCalled();
    key('a');
    key('Enter', false); // Enter on a link or button inside belongs to it
    expect(onSelect.mock.calls).toEqual([['c-heading'], ['c-heading']]);

    const preventDefault = vi.fn();
    (frames[2]?.props.onClick as (e: object) => void)({ preventDefault });
    expect(onSelect).toHaveBeenLastCalledWith('c-ai');
    expect(preventDefault).toHaveBeenCalled();
  });

  it('outlines other people’s selections in their colour with their name', () => {
    const { tree } = render({
      definition,
      presence: [
        { componentId: 'c-heading', name: 'Ana', color: '#aa0000' },
        { componentId: 'c-heading', name: 'Ben', color: 'red;background:url(x)' },
      ],
    });
    const frame = findAll(tree, byComponent('c-heading'))[0];
    expect(frame?.props.style).toEqual({
      boxShadow: '0 0 0 2px #aa0000, 0 0 0 4px #5b5bd6',
    });
    expect(
      findAll(tree, (n) => n.props.className === 'rt-presence-label').map((n) => textOf([n])),
    ).toEqual(['Ana', 'Ben']);
    expect(findAll(tree, byComponent('c-button'))[0]?.props.style).toBeUndefined();
  });

  it('navigates from a button whose action navigates, and from list items', () => {
    const onNavigate = vi.fn();
    // Without the search's chips: every button here navigates.
    const list = component('l', 'list', {
      collectionId: 'tasks',
      detailScreenId: 'other',
      search: false,
    });
    const { tree } = render({
      definition: definitionWith([EVERY_TYPE.button, list]),
      onNavigate,
    });
    const buttons = findAll(tree, (n) => n.tag === 'button');
    expect(buttons).toHaveLength(5);
    for (const button of buttons) (button.props.onClick as () => void)();
    expect(onNavigate.mock.calls).toEqual(Array(5).fill(['other']));
  });

  it('applies the theme through custom properties', () => {
    const { tree } = render({ definition, colorMode: 'dark' });
    const root = tree[0] as HostNode;
    expect(root.props.style).toMatchObject({
      '--rt-primary': PRESET_TOKENS.meadow.dark.primary,
      '--rt-background': PRESET_TOKENS.meadow.dark.background,
      '--rt-radius': '12px',
      colorScheme: 'dark',
    });
  });
});

import { createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { parseMarkdown } from '../src/markdown';
import { SafeMarkdown } from '../src/index';
import { findAll, renderStatic, textOf } from './support/render-static';

const md = (markdown: string) => renderStatic(createElement(SafeMarkdown, { markdown }));

describe('SafeMarkdown', () => {
  it('shows raw HTML as literal text', () => {
    const { tree, html } = md('<script>alert(1)</script>\n\n<img src=x onerror="alert(1)">');
    expect(findAll(tree, (n) => n.tag === 'script' || n.tag === 'img')).toEqual([]);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
    expect(textOf(tree)).toContain('<img src=x onerror="alert(1)">');
  });

  it.each(['javascript:alert(1)', 'JavaScript:alert(1)', 'java\tscript:x', 'data:text/html,hi'])(
    'renders [x](%s) without an href',
    (url) => {
      const { tree } = md(`[click](${url})`);
      expect(findAll(tree, (n) => n.tag === 'a')).toEqual([]);
      expect(textOf(tree)).toBe('click');
    },
  );

  it('renders safe links, absolute ones in a new tab', () => {
    const { tree } = md('[a](https://example.com/x) and [b](/apps/1)');
    const links = findAll(tree, (n) => n.tag === 'a').map((a) => a.props);
    expect(links).toEqual([
      {
        className: 'rt-link',
        href: 'https://example.com/x',
        target: '_blank',
        rel: 'noopener noreferrer',
        children: expect.anything(),
      },
      { className: 'rt-link', href: '/apps/1', children: expect.anything() },
    ]);
  });

  it('renders paragraphs, breaks, emphasis, code, bullets and headings', () => {
    const { tree } = md('# Title\n### Small\nOne **bold** *it* `a*b*`\nnext\n\n- x\n- **y**');
    const tags = (tag: string) => findAll(tree, (n) => n.tag === tag).map((n) => textOf([n]));
    // Every heading is h3 in the outline (no skipped levels), sized by its markdown level.
    expect(tags('h3')).toEqual(['Title', 'Small']);
    expect(findAll(tree, (n) => n.tag === 'h3').map((n) => n.props.className)).toEqual([
      'rt-heading rt-heading-1',
      'rt-heading rt-heading-3',
    ]);
    expect(tags('strong')).toEqual(['bold', 'y']);
    expect(tags('em')).toEqual(['it']);
    expect(tags('code')).toEqual(['a*b*']);
    expect(tags('br')).toHaveLength(1);
    expect(tags('li')).toEqual(['x', 'y']);
    expect(tags('p')).toEqual(['One bold it a*b*next']);
  });

  it('shows template placeholders and unclosed markers literally', () => {
    expect(textOf(md('Hi {{record.title}} **open *x [y](').tree)).toBe(
      'Hi {{record.title}} **open *x [y](',
    );
  });

  it('survives hostile nesting', () => {
    const deep = `${'['.repeat(5000)}x${'](/a)'.repeat(5000)}`;
    expect(() => md(deep)).not.toThrow();
    expect(parseMarkdown('**'.repeat(3000))).toBeDefined();
  });
});

import type { ReactNode } from 'react';
import { Heading } from './heading';
import { type Block, type Inline, parseMarkdown } from './markdown';
import { SafeLink } from './safe-link';

function renderInline(nodes: Inline[]): ReactNode[] {
  return nodes.map((node, i) => {
    switch (node.kind) {
      case 'text':
        return node.text;
      case 'code':
        return (
          <code key={i} className="rt-code">
            {node.text}
          </code>
        );
      case 'break':
        return <br key={i} />;
      case 'strong':
        return <strong key={i}>{renderInline(node.children)}</strong>;
      case 'em':
        return <em key={i}>{renderInline(node.children)}</em>;
      case 'link':
        return (
          <SafeLink key={i} url={node.url}>
            {renderInline(node.children)}
          </SafeLink>
        );
    }
  });
}

function renderBlock(block: Block, i: number): ReactNode {
  switch (block.kind) {
    case 'paragraph':
      return <p key={i}>{renderInline(block.children)}</p>;
    case 'heading':
      return (
        <Heading key={i} level={block.level}>
          {renderInline(block.children)}
        </Heading>
      );
    case 'list':
      return (
        <ul key={i} className="rt-bullets">
          {block.items.map((item, j) => (
            <li key={j}>{renderInline(item)}</li>
          ))}
        </ul>
      );
  }
}

/**
 * Markdown as React elements only: no `dangerouslySetInnerHTML`, so HTML in the text (and template
 * placeholders such as `{{record.field}}`, for now) is shown literally.
 */
export function SafeMarkdown({ markdown }: { markdown: string }) {
  return <div className="rt-markdown">{parseMarkdown(markdown).map(renderBlock)}</div>;
}

/**
 * A deliberately tiny markdown dialect for text components (safe markdown,
 * docs/product/validation.md): paragraphs, line breaks, **bold**, *italic*, `code`, [links](url),
 * "- " bullets and "#"–"###" headings. It yields a tree of plain data that is rendered as React
 * elements, so raw HTML in the text can only ever be shown as literal text
 * (docs/product/validation.md: markdown renders without raw HTML).
 */
export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'break' }
  | { kind: 'strong'; children: Inline[] }
  | { kind: 'em'; children: Inline[] }
  | { kind: 'link'; url: string; children: Inline[] };

export type Block =
  | { kind: 'paragraph'; children: Inline[] }
  | { kind: 'heading'; level: 1 | 2 | 3; children: Inline[] }
  | { kind: 'list'; items: Inline[][] };

/** Deeper nesting is shown as text: it bounds recursion on hostile input like `[[[[…`. */
const MAX_DEPTH = 6;
const ESCAPABLE = '\\`*_[]()#-';

function pushText(out: Inline[], text: string): void {
  const last = out[out.length - 1];
  if (last?.kind === 'text') last.text += text;
  else if (text) out.push({ kind: 'text', text });
}

/** A closing `marker` after `from` that follows a non-space (`**a **` does not close at ` **`). */
function findCloser(source: string, marker: string, from: number): number {
  for (let end = source.indexOf(marker, from); end !== -1; end = source.indexOf(marker, end + 1)) {
    if (end > from && !/\s/.test(source[end - 1] ?? ' ')) return end;
  }
  return -1;
}

/** The `)` closing a link URL opened before `from`, allowing balanced `(…)` inside the URL. */
function findUrlEnd(source: string, from: number): number {
  let depth = 0;
  for (let i = from; i < source.length; i += 1) {
    const ch = source[i];
    if (ch === '(') depth += 1;
    else if (ch === ')' && depth-- === 0) return i;
    else if (ch === '\n') return -1;
  }
  return -1;
}

export function parseInline(source: string, depth = 0): Inline[] {
  const out: Inline[] = [];
  let i = 0;
  while (i < source.length) {
    const ch = source[i] ?? '';
    if (ch === '\\' && ESCAPABLE.includes(source[i + 1] ?? ' ')) {
      pushText(out, source[i + 1] ?? '');
      i += 2;
      continue;
    }
    if (ch === '\n') {
      out.push({ kind: 'break' });
      i += 1;
      continue;
    }
    if (ch === '`') {
      const end = source.indexOf('`', i + 1);
      if (end > i + 1) {
        out.push({ kind: 'code', text: source.slice(i + 1, end) });
        i = end + 1;
        continue;
      }
    }
    const opens = !/\s/.test(source[i + (source.startsWith('**', i) ? 2 : 1)] ?? ' ');
    if (depth < MAX_DEPTH && source.startsWith('**', i) && opens) {
      const end = findCloser(source, '**', i + 2);
      if (end !== -1) {
        out.push({ kind: 'strong', children: parseInline(source.slice(i + 2, end), depth + 1) });
        i = end + 2;
        continue;
      }
    }
    if (depth < MAX_DEPTH && ch === '*' && source[i + 1] !== '*' && opens) {
      const end = findCloser(source, '*', i + 1);
      if (end !== -1) {
        out.push({ kind: 'em', children: parseInline(source.slice(i + 1, end), depth + 1) });
        i = end + 1;
        continue;
      }
    }
    if (depth < MAX_DEPTH && ch === '[') {
      const middle = source.indexOf('](', i + 1);
      const end = middle === -1 ? -1 : findUrlEnd(source, middle + 2);
      if (middle > i + 1 && end !== -1) {
        out.push({
          kind: 'link',
          url: source.slice(middle + 2, end),
          children: parseInline(source.slice(i + 1, middle), depth + 1),
        });
        i = end + 1;
        continue;
      }
    }
    pushText(out, ch);
    i += 1;
  }
  return out;
}

const HEADING = /^(#{1,3})\s+(.*)$/;
const BULLET = /^\s*[-*]\s+(.*)$/;

export function parseMarkdown(source: string): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  let items: string[] = [];
  const flush = () => {
    if (paragraph.length > 0)
      blocks.push({ kind: 'paragraph', children: parseInline(paragraph.join('\n')) });
    if (items.length > 0) blocks.push({ kind: 'list', items: items.map((t) => parseInline(t)) });
    paragraph = [];
    items = [];
  };
  for (const rawLine of source.replace(/\r\n?/g, '\n').split('\n')) {
    const line = rawLine.trimEnd();
    const heading = HEADING.exec(line);
    const bullet = BULLET.exec(line);
    if (line.trim() === '') {
      flush();
    } else if (heading) {
      flush();
      const level = (heading[1] ?? '#').length as 1 | 2 | 3;
      blocks.push({ kind: 'heading', level, children: parseInline(heading[2] ?? '') });
    } else if (bullet) {
      if (paragraph.length > 0) flush();
      items.push(bullet[1] ?? '');
    } else {
      if (items.length > 0) flush();
      paragraph.push(line);
    }
  }
  flush();
  return blocks;
}

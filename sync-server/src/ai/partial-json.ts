/*
 * Reading JSON out of a model's answer. `readPartialJson` is a tolerant reader for JSON that is
 * still arriving (a streamed answer): it reads the longest prefix that ends after a complete value
 * and closes whatever is still open, so `{"a":[{"b":"x"},{"b":"y` reads as `{"a":[{"b":"x"},{}]}`.
 * A string is only read once its closing quote has arrived. `jsonValueEnd` finds where a whole
 * object ends, so an answer with prose around its JSON can be read (never a cut-off one: it has
 * no end). Written here rather than taken from npm: it is fifty lines, and the server needs nothing
 * else from such a library.
 */

interface Level {
  closer: '}' | ']';
  /** In an object: whether the next string is a key. */
  expectKey: boolean;
}

/** The index just after the string whose opening quote is at `start`, or -1 if it is not closed. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\') i++;
    else if (ch === '"') return i + 1;
  }
  return -1;
}

/** The value so far, or undefined when nothing complete has arrived yet. */
export function readPartialJson(text: string): unknown {
  const stack: Level[] = [];
  let safeEnd = -1;
  let safeClosers = '';
  const mark = (end: number) => {
    safeEnd = end;
    safeClosers = stack
      .map((l) => l.closer)
      .reverse()
      .join('');
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    const top = stack.at(-1);
    if (ch === '"') {
      const isKey = top?.closer === '}' && top.expectKey;
      const end = stringEnd(text, i);
      if (end < 0) break;
      if (!isKey) mark(end);
      i = end - 1;
    } else if (ch === '{' || ch === '[') {
      stack.push({ closer: ch === '{' ? '}' : ']', expectKey: ch === '{' });
      mark(i + 1);
    } else if (ch === '}' || ch === ']') {
      stack.pop();
      mark(i + 1);
      // The whole value has arrived: what follows (a closing fence, prose) is not part of it.
      if (stack.length === 0) break;
    } else if (ch === ':') {
      if (top) top.expectKey = false;
    } else if (ch === ',') {
      mark(i);
      if (top?.closer === '}') top.expectKey = true;
    }
  }
  if (safeEnd < 0) return undefined;
  const candidate = text.slice(0, safeEnd).replace(/,\s*$/, '') + safeClosers;
  try {
    return JSON.parse(candidate) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The index just after the object or array that opens at `start`, counting brackets outside
 * strings; -1 when it never closes (the text was cut off inside it).
 */
export function jsonValueEnd(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') {
      const end = stringEnd(text, i);
      if (end < 0) return -1;
      i = end - 1;
    } else if (ch === '{' || ch === '[') {
      depth++;
    } else if (ch === '}' || ch === ']') {
      depth--;
      if (depth <= 0) return i + 1;
    }
  }
  return -1;
}

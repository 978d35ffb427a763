/*
 * A tolerant reader for JSON that is still arriving (a streamed model answer): it reads the longest
 * prefix that ends after a complete value and closes whatever is still open, so `{"a":[{"b":"x"},{"b":"y`
 * reads as `{"a":[{"b":"x"},{}]}`. A string is only read once its closing quote has arrived.
 * Written here rather than taken from npm: it is forty lines, and the server needs nothing else
 * from such a library.
 */

interface Level {
  closer: '}' | ']';
  /** In an object: whether the next string is a key. */
  expectKey: boolean;
}

/** The value so far, or undefined when nothing complete has arrived yet. */
export function readPartialJson(text: string): unknown {
  const stack: Level[] = [];
  let safeEnd = -1;
  let safeClosers = '';
  let inString = false;
  let stringIsKey = false;
  let escaped = false;
  const mark = (end: number) => {
    safeEnd = end;
    safeClosers = stack
      .map((l) => l.closer)
      .reverse()
      .join('');
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') {
        inString = false;
        if (!stringIsKey) mark(i + 1);
      }
      continue;
    }
    const top = stack.at(-1);
    if (ch === '"') {
      inString = true;
      stringIsKey = top?.closer === '}' && top.expectKey;
    } else if (ch === '{' || ch === '[') {
      stack.push({ closer: ch === '{' ? '}' : ']', expectKey: ch === '{' });
      mark(i + 1);
    } else if (ch === '}' || ch === ']') {
      stack.pop();
      mark(i + 1);
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

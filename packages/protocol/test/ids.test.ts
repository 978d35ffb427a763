import { describe, expect, it } from 'vitest';
import { createId, documentName, ID_PATTERN, isId, parseDocumentName } from '../src/index';

describe('createId', () => {
  it('makes 26-character base32 ids (130 random bits) that do not repeat', () => {
    const ids = new Set(Array.from({ length: 5_000 }, () => createId()));
    expect(ids.size).toBe(5_000);
    for (const id of ids) expect(id).toMatch(ID_PATTERN);
  });

  it('uses every symbol of the alphabet roughly evenly', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 2_000; i++)
      for (const c of createId()) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(32);
    const expected = (2_000 * 26) / 32;
    for (const n of counts.values()) expect(Math.abs(n - expected) / expected).toBeLessThan(0.2);
  });
});

describe('document names', () => {
  const appId = createId();
  const userId = createId();

  it('round-trips every kind of document name (docs/architecture.md)', () => {
    for (const doc of [
      { kind: 'app', appId },
      { kind: 'draft', appId, draftId: userId },
      { kind: 'space', spaceId: appId },
      { kind: 'user', userId },
      { kind: 'data', appId, userId },
    ] as const) {
      expect(parseDocumentName(documentName(doc))).toEqual(doc);
    }
  });

  it('rejects anything else', () => {
    for (const name of [
      '',
      'app',
      `app/${appId}/x`,
      `app/${appId.toUpperCase()}`,
      `user/../${userId}`,
      `data/${appId}`,
      `draft/${appId}`,
      `draft/${appId}/${userId}/x`,
      `draft/${appId}/not-an-id`,
      `other/${appId}`,
      `app/${appId} `,
    ]) {
      expect(parseDocumentName(name), name).toBeNull();
    }
    expect(isId('short')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { noteAccountDeleted, takeAccountDeletedNote } from './farewell';

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

describe('the note the landing page reads after an account is deleted', () => {
  it('is read once', () => {
    const storage = memoryStorage();
    expect(takeAccountDeletedNote(storage)).toBe(false);
    noteAccountDeleted(storage);
    expect(takeAccountDeletedNote(storage)).toBe(true);
    expect(takeAccountDeletedNote(storage)).toBe(false);
  });

  it('is no note when storage is missing or refuses', () => {
    const refusing = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
      removeItem: () => {},
    };
    expect(() => noteAccountDeleted(refusing)).not.toThrow();
    expect(takeAccountDeletedNote(refusing)).toBe(false);
    expect(takeAccountDeletedNote(undefined)).toBe(false);
  });
});

// First: IndexedDB must exist before y-indexeddb opens it.
import { fakeBrowser } from '../../test-support/fake-browser';
import { readVisitorData, setCounter } from '@pipit/app-definition';
import { createId } from '@pipit/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  isDeviceDocumentInUse,
  isDeviceDocumentOpen,
  loadedDeviceDocument,
  openDeviceDocument,
  openDeviceDocumentAhead,
} from './device-documents';
import { anonymousDataName } from '../core/document-names';

/*
 * A visitor's data opened ahead of its first user (an installed app reads it while React starts,
 * client/features/runtime-host/open-ahead.ts): read from this device at once, handed over to the
 * first user, closed with that user, and never left open when nobody comes.
 */

beforeEach(() => {
  fakeBrowser({ online: false });
});
afterEach(() => {
  vi.useRealTimers();
});

/** An anonymous visitor's data for a new app, with a counter already on this device. */
async function storedWithACounter(): Promise<string> {
  const name = anonymousDataName(createId());
  const writer = openDeviceDocument(name);
  await writer.whenLocal;
  setCounter(writer.doc, 'glasses', 3);
  writer.release();
  // Closing waits for the queued write; a fresh open reads it back.
  await vi.waitFor(async () => {
    const reader = openDeviceDocument(name);
    await reader.whenLocal;
    const counters = readVisitorData(reader.doc).counters;
    reader.release();
    expect(counters).toEqual({ glasses: 3 });
  });
  return name;
}

describe('a device document opened ahead', () => {
  it('is read from this device before anyone asks, and drawn from at once', async () => {
    const name = await storedWithACounter();
    expect(loadedDeviceDocument(name)).toBeNull();
    void openDeviceDocumentAhead(name);
    expect(isDeviceDocumentOpen(name)).toBe(true);
    // Held ahead only: nobody uses it yet (a sign-in's merge may take it over).
    expect(isDeviceDocumentInUse(name)).toBe(false);
    await vi.waitFor(() => expect(loadedDeviceDocument(name)).not.toBeNull());
    const doc = loadedDeviceDocument(name)!;
    expect(readVisitorData(doc).counters).toEqual({ glasses: 3 });

    // Its first user gets the same document, already loaded.
    const user = openDeviceDocument(name);
    expect(user.doc).toBe(doc);
    expect(user.isLocal()).toBe(true);
    expect(isDeviceDocumentInUse(name)).toBe(true);
    user.release();
    expect(isDeviceDocumentOpen(name)).toBe(false);
    expect(loadedDeviceDocument(name)).toBeNull();
  });

  it('is handed over to its first user: it closes when that user lets go, not before', async () => {
    const name = anonymousDataName(createId());
    void openDeviceDocumentAhead(name);
    const first = openDeviceDocument(name);
    const second = openDeviceDocument(name);
    first.release();
    expect(isDeviceDocumentOpen(name)).toBe(true);
    second.release();
    expect(isDeviceDocumentOpen(name)).toBe(false);
  });

  it('closes after ten seconds when nobody comes, and opening it ahead twice holds it once', () => {
    vi.useFakeTimers();
    const name = anonymousDataName(createId());
    void openDeviceDocumentAhead(name);
    void openDeviceDocumentAhead(name);
    vi.advanceTimersByTime(9_999);
    expect(isDeviceDocumentOpen(name)).toBe(true);
    vi.advanceTimersByTime(1);
    expect(isDeviceDocumentOpen(name)).toBe(false);
  });

  it('is not held by a late ahead-open once someone has it', () => {
    vi.useFakeTimers();
    const name = anonymousDataName(createId());
    const user = openDeviceDocument(name);
    void openDeviceDocumentAhead(name);
    user.release();
    expect(isDeviceDocumentOpen(name)).toBe(false);
  });

  it('is not drawn from before this device’s copy is loaded', () => {
    const name = anonymousDataName(createId());
    const user = openDeviceDocument(name);
    expect(user.isLocal()).toBe(false);
    expect(loadedDeviceDocument(name)).toBeNull();
    user.release();
  });
});

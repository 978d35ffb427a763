/*
 * Values read once and kept — never a failure. A promise kept after it rejected answers every later
 * caller with that rejection until the process restarts: one database blip while the human check
 * read its secrets broke sign-up and sign-in on an instance for good, while `/api/ready` said 200.
 * Every read-once value of the server goes through here.
 */

/**
 * `read`'s answer, read on the first call and kept for every later one, unless reading failed: a
 * failed read is forgotten, and the next call reads again. Callers waiting together share one read.
 */
export function readOnce<T>(read: () => Promise<T>): () => Promise<T> {
  let kept: Promise<T> | undefined;
  return () => {
    if (kept) return kept;
    const reading = Promise.resolve().then(read);
    kept = reading;
    reading.catch(() => {
      if (kept === reading) kept = undefined;
    });
    return reading;
  };
}

/** The part of a Map or an LRU that `keepUnlessFailed` uses. */
interface PromiseCache<K, V> {
  get(key: K): Promise<V> | undefined;
  set(key: K, value: Promise<V>): unknown;
  delete(key: K): unknown;
}

/**
 * The promise kept under `key`, or `make()`'s, kept from now on unless it fails: a failure is
 * removed (only if it is still the one kept), so the next caller tries again.
 */
export function keepUnlessFailed<K, V>(
  cache: PromiseCache<K, V>,
  key: K,
  make: () => Promise<V>,
): Promise<V> {
  const kept = cache.get(key);
  if (kept) return kept;
  const made = Promise.resolve().then(make);
  cache.set(key, made);
  made.catch(() => {
    if (cache.get(key) === made) cache.delete(key);
  });
  return made;
}

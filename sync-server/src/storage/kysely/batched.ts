import DataLoader from 'dataloader';

/** Look-ups one statement takes at most (each adds a few parameters; SQLite allows 32,766). */
export const MAX_BATCH = 500;
/** Statements of one batched look-up under way at once; calls made meanwhile wait and go together. */
export const BATCHES_IN_FLIGHT = 2;

/**
 * One look-up by key whose calls go to storage together: those made in the same turn of the event
 * loop, and those made while BATCHES_IN_FLIGHT of its statements are under way, wait and go in
 * one statement (as the update log's group commit does, update-log.ts). So a burst of socket
 * openings (a restart's reconnect storm, a popular app published) makes a few reads of sessions
 * and roles and a few claims, not one round trip each, which at thousands of sockets was most of
 * the database's work and of this process's time writing to it. A lone call waits one turn of
 * the event loop.
 *
 * DataLoader assembles the batches (cache off: nothing is kept between calls, so a failed
 * statement is read again by the next call); `loadMany` answers every key in order, or throws,
 * and then each call of that batch rejects with its error.
 */
export function batched<K, V>(
  loadMany: (keys: readonly K[]) => Promise<V[]>,
  options: { maxBatch?: number; inFlight?: number } = {},
): (key: K) => Promise<V> {
  const limit = options.inFlight ?? BATCHES_IN_FLIGHT;
  /** Batches under way or about to start; each holds one of `limit` places until it is answered. */
  let places = 0;
  const waiting: Array<() => void> = [];
  const loader = new DataLoader<K, V>(
    async (keys) => {
      try {
        return await loadMany(keys);
      } finally {
        // The place goes to the batch that waited longest, which has gathered calls meanwhile.
        const next = waiting.shift();
        if (next) next();
        else places -= 1;
      }
    },
    {
      // With the cache off, every batch DataLoader dispatches has a key, so reaches the function.
      cache: false,
      maxBatchSize: options.maxBatch ?? MAX_BATCH,
      batchScheduleFn: (dispatch) => {
        if (places >= limit) {
          waiting.push(dispatch);
          return;
        }
        places += 1;
        setImmediate(dispatch);
      },
    },
  );
  return (key) => loader.load(key);
}

import { type CollabTimings, NO_COLLAB_TIMINGS } from '../metrics';
import type { DocumentStore } from '../storage/types';

interface Waiting {
  name: string;
  update: Uint8Array;
  resolve: (seq: number) => void;
  reject: (error: unknown) => void;
}

/**
 * Appends updates to the durable log with group commit: updates that arrive while a write is in
 * flight go together in the next one, so many clients' edits cost one transaction (one fsync), not
 * one each (docs/decisions/0002-group-commit.md).
 */
export class UpdateLog {
  private queue: Waiting[] = [];
  private writing = false;

  constructor(
    private readonly store: DocumentStore,
    private readonly timings: CollabTimings = NO_COLLAB_TIMINGS,
  ) {}

  /** Resolves with the update's sequence number once it is durable in storage. */
  append(name: string, update: Uint8Array): Promise<number> {
    return new Promise((resolve, reject) => {
      this.queue.push({ name, update, resolve, reject });
      if (this.writing) return;
      this.writing = true;
      // SQLite commits synchronously: started at once, every write would go alone. Waiting for the
      // check phase lets the updates read from other sockets in the same I/O phase join it.
      setImmediate(() => void this.drain());
    });
  }

  private async drain() {
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      const timed = this.timings.updateLogAppend();
      try {
        const seqs = await this.store.append(batch.map(({ name, update }) => ({ name, update })));
        batch.forEach((waiting, i) => waiting.resolve(seqs[i] ?? Number.NaN));
      } catch (error) {
        batch.forEach((waiting) => waiting.reject(error));
      } finally {
        timed();
      }
    }
    this.writing = false;
  }
}

import { HISTORY_LIMITS, THINNED_CHECKPOINT_KINDS } from '@pipit/protocol';
import type { CheckpointRecord } from '../storage/types';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * How long an automatic checkpoint keeps its neighbours: every one of the last day, the newest of
 * each hour for a week, of each day for 90 days, of each week after that.
 */
function bucketOf(createdAt: number, now: number): string | null {
  const age = now - createdAt;
  if (age < DAY) return null;
  if (age < 7 * DAY) return `h${Math.floor(createdAt / HOUR)}`;
  if (age < 90 * DAY) return `d${Math.floor(createdAt / DAY)}`;
  return `w${Math.floor(createdAt / (7 * DAY))}`;
}

/**
 * Which checkpoints to drop so an app's history stays bounded (docs/product/history.md): automatic
 * ones thin out as they age, then the oldest automatic ones go while the app is over
 * HISTORY_LIMITS. Named and published checkpoints, and the newest checkpoint, are never dropped.
 * `checkpoints` is newest first.
 */
export function checkpointsToDrop(
  checkpoints: readonly CheckpointRecord[],
  now: number,
  limits: { count: number; bytes: number } = {
    count: HISTORY_LIMITS.checkpointsPerApp,
    bytes: HISTORY_LIMITS.bytesPerApp,
  },
): string[] {
  const drop = new Set<string>();
  const seen = new Set<string>();
  checkpoints.forEach((checkpoint, index) => {
    if (!THINNED_CHECKPOINT_KINDS.includes(checkpoint.kind)) return;
    const bucket = bucketOf(checkpoint.createdAt, now);
    if (bucket === null) return;
    // The newest checkpoint is kept, and stands for its bucket.
    if (seen.has(bucket) && index > 0) drop.add(checkpoint.id);
    else seen.add(bucket);
  });
  let count = checkpoints.length - drop.size;
  let bytes = checkpoints.reduce((sum, c) => sum + (drop.has(c.id) ? 0 : c.size), 0);
  for (
    let i = checkpoints.length - 1;
    i > 0 && (count > limits.count || bytes > limits.bytes);
    i--
  ) {
    const checkpoint = checkpoints[i]!;
    if (drop.has(checkpoint.id) || !THINNED_CHECKPOINT_KINDS.includes(checkpoint.kind)) continue;
    drop.add(checkpoint.id);
    count -= 1;
    bytes -= checkpoint.size;
  }
  return [...drop];
}

/** Whether the checkpoints that are never thinned leave room for one more. */
export function roomForNamed(checkpoints: readonly CheckpointRecord[]): boolean {
  const kept = checkpoints.filter((c) => !THINNED_CHECKPOINT_KINDS.includes(c.kind));
  return (
    kept.length < HISTORY_LIMITS.checkpointsPerApp &&
    kept.reduce((sum, c) => sum + c.size, 0) < HISTORY_LIMITS.bytesPerApp
  );
}

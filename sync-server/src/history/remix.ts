import { canSeePublished, type VisibleApp } from '../publishing/visibility';
import type { AppRecord } from '../storage/types';

/**
 * Which versions of an original someone who can see it (`findVisibleApp`) may read now
 * (docs/product/history.md#remixes-that-pull-their-originals-updates): its owner and
 * collaborators every version (they read its history, where each publish is a checkpoint); anyone
 * else only the version it publishes now. A version published while the app was private stays
 * its owner's and collaborators'.
 */
export function mayReadVersion(source: VisibleApp, version: number): boolean {
  if (source.role !== null) return true;
  return source.app.publishedVersion !== null && version === source.app.publishedVersion;
}

/** Whether `version` is the one the original publishes for everyone now (public or unlisted). */
export function isPublicVersion(source: VisibleApp, version: number): boolean {
  return canSeePublished(source.app, null) && version === source.app.publishedVersion;
}

/**
 * The base a remix pulls from (the original's version it was made from or last pulled), when the
 * reader may be given it now: the original must be visible to them and publish a version no older
 * than the base, and the base be one they may read now (above) or the version the original
 * published for everyone when the remix recorded it (`forkedFromPublicAt`). A base only the
 * original's people could read, or recorded before that was kept, is given to nobody else: null.
 */
export function readableBase(remix: AppRecord, source: VisibleApp): number | null {
  const base = remix.forkedFromVersion;
  const published = source.app.publishedVersion;
  if (base === null || published === null || base > published) return null;
  if (mayReadVersion(source, base) || remix.forkedFromPublicAt !== null) return base;
  return null;
}

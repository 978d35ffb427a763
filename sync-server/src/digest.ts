import { randomBytes } from 'node:crypto';

/** A short id for one server-side failure, shown to the person and logged with the error. */
export function createDigest(): string {
  return randomBytes(6).toString('hex');
}

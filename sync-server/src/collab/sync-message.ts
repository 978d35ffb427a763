import * as decoding from 'lib0/decoding';

/** Hocuspocus message types that carry a y-protocols sync message (its MessageType enum). */
const SYNC = 0;
const SYNC_REPLY = 4;
/** y-protocols sync message types that carry a document update. */
const SYNC_STEP_2 = 1;
const UPDATE = 2;

/**
 * The document update a raw Hocuspocus message carries (a sync step 2 or an update), or null for
 * every other message (awareness, auth, sync step 1, …). Throws when the framing is malformed.
 */
export function updateInMessage(message: Uint8Array): Uint8Array | null {
  const decoder = decoding.createDecoder(message);
  decoding.readVarString(decoder);
  const type = decoding.readVarUint(decoder);
  if (type !== SYNC && type !== SYNC_REPLY) return null;
  const syncType = decoding.readVarUint(decoder);
  if (syncType !== SYNC_STEP_2 && syncType !== UPDATE) return null;
  return decoding.readVarUint8Array(decoder);
}

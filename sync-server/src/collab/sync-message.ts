import * as decoding from 'lib0/decoding';

/** Hocuspocus message types that carry a y-protocols sync message (its MessageType enum). */
const SYNC = 0;
const SYNC_REPLY = 4;
/** y-protocols sync message types. */
const SYNC_STEP_1 = 0;
const SYNC_STEP_2 = 1;
const UPDATE = 2;

/** What a raw Hocuspocus message carries that the server checks before handling it. */
export type SyncPayload =
  /** A sync step 2 or an update: a document update. */
  | { kind: 'update'; update: Uint8Array }
  /** A sync step 1: the sender's state vector ("send me what I lack"). */
  | { kind: 'state-vector'; stateVector: Uint8Array }
  | null;

/**
 * The sync payload of a raw Hocuspocus message, or null for every other message (awareness,
 * auth, …). Throws when the framing is malformed.
 */
export function syncPayloadOf(message: Uint8Array): SyncPayload {
  const decoder = decoding.createDecoder(message);
  decoding.readVarString(decoder);
  const type = decoding.readVarUint(decoder);
  if (type !== SYNC && type !== SYNC_REPLY) return null;
  const syncType = decoding.readVarUint(decoder);
  if (syncType === SYNC_STEP_1) {
    return { kind: 'state-vector', stateVector: decoding.readVarUint8Array(decoder) };
  }
  if (syncType !== SYNC_STEP_2 && syncType !== UPDATE) return null;
  return { kind: 'update', update: decoding.readVarUint8Array(decoder) };
}

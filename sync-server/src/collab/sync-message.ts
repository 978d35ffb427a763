import * as decoding from 'lib0/decoding';

/** Hocuspocus message types a client may send (its MessageType enum). */
const SYNC = 0;
const AWARENESS = 1;
const AUTH = 2;
const QUERY_AWARENESS = 3;
const SYNC_REPLY = 4;
const STATELESS = 5;
const CLOSE = 7;
/** Hocuspocus's authentication message types: a client only ever sends its token. */
const AUTH_TOKEN = 0;
/** y-protocols sync message types. */
const SYNC_STEP_1 = 0;
const SYNC_STEP_2 = 1;
const UPDATE = 2;

/** What a raw Hocuspocus message carries that the server checks before handling it. */
export type SyncPayload =
  /** A sync step 2 or an update: a document update. */
  | { kind: 'update'; update: Uint8Array; step: 'step-2' | 'update' }
  /** A sync step 1: the sender's state vector ("send me what I lack"). */
  | { kind: 'state-vector'; stateVector: Uint8Array }
  | null;

/**
 * Reads what Hocuspocus reads of any message before it knows its document: the document's name
 * and the message type, and an authentication's token. Throws when those are malformed, where
 * Hocuspocus would print a stack and close the socket with a reason of its own.
 */
export function checkFraming(message: Uint8Array): void {
  const decoder = decoding.createDecoder(message);
  decoding.readVarString(decoder);
  if (decoding.readVarUint(decoder) !== AUTH) return;
  decoding.readVarUint(decoder);
  decoding.readVarString(decoder);
}

/** A presence update as y-protocols reads it: each state must be JSON. Throws otherwise. */
function checkAwareness(update: Uint8Array): void {
  const decoder = decoding.createDecoder(update);
  const count = decoding.readVarUint(decoder);
  for (let i = 0; i < count; i++) {
    decoding.readVarUint(decoder);
    decoding.readVarUint(decoder);
    JSON.parse(decoding.readVarString(decoder));
  }
}

/**
 * The sync payload of a raw Hocuspocus message, or null for every other message (awareness,
 * auth, …). Throws when the message is malformed, or of a type no client sends: Hocuspocus would
 * otherwise print it (with a stack, for most) and close the connection with a reason of its own,
 * or print a line for each such message and go on.
 */
export function syncPayloadOf(message: Uint8Array): SyncPayload {
  const decoder = decoding.createDecoder(message);
  decoding.readVarString(decoder);
  const type = decoding.readVarUint(decoder);
  switch (type) {
    case SYNC:
    case SYNC_REPLY: {
      const syncType = decoding.readVarUint(decoder);
      const payload = decoding.readVarUint8Array(decoder);
      if (syncType === SYNC_STEP_1) return { kind: 'state-vector', stateVector: payload };
      if (syncType === SYNC_STEP_2) return { kind: 'update', update: payload, step: 'step-2' };
      if (syncType === UPDATE) return { kind: 'update', update: payload, step: 'update' };
      throw new Error(`unknown sync message type ${syncType}`);
    }
    case AWARENESS:
      checkAwareness(decoding.readVarUint8Array(decoder));
      return null;
    case AUTH:
      // A provider sends its token again when it is recreated quickly; nothing else.
      if (decoding.readVarUint(decoder) !== AUTH_TOKEN) throw new Error('not a token');
      decoding.readVarString(decoder);
      return null;
    case STATELESS:
      decoding.readVarString(decoder);
      return null;
    case QUERY_AWARENESS:
    case CLOSE:
      return null;
    default:
      throw new Error(`unknown message type ${type}`);
  }
}

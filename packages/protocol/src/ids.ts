/**
 * Ids made on the device (apps are created offline, docs/product/records.md): 26 characters of
 * lowercase RFC 4648 base32, 130 random bits — above a random UUID's 122 bits —
 * case-insensitive-safe in URLs and QR codes.
 */
export const ID_LENGTH = 26;
export const ID_PATTERN = /^[a-z2-7]{26}$/;

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

interface RandomSource {
  getRandomValues<T extends Uint8Array>(array: T): T;
}

/** Web Crypto exists in browsers, workers and Node ≥ 19; packages declare no environment types. */
function randomSource(): RandomSource {
  const source = (globalThis as { crypto?: RandomSource }).crypto;
  if (!source) throw new Error('Web Crypto (crypto.getRandomValues) is not available.');
  return source;
}

/** A new id with 130 bits from a cryptographic random source. */
export function createId(): string {
  // 32 symbols: each byte's low 5 bits are uniform, so no rejection sampling is needed.
  const bytes = randomSource().getRandomValues(new Uint8Array(ID_LENGTH));
  let id = '';
  for (const byte of bytes) id += ALPHABET[byte & 31];
  return id;
}

export function isId(value: string): boolean {
  return ID_PATTERN.test(value);
}

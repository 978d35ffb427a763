import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Random bytes, base64url: 32 (256 bits, 43 characters) for emailed links and session secrets; 24
 * (192 bits, 32 characters) for a shared space's invitation links.
 */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** What the database keeps of a token or a session secret: never the thing itself. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function equalHex(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

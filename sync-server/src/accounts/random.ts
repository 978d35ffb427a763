import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 32 random bytes (256 bits), base64url: for emailed links and session secrets. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
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

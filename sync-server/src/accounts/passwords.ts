import { hash, verify } from '@node-rs/argon2';

/** @node-rs/argon2's `Algorithm.Argon2id`, a const enum that isolated modules cannot import. */
const ARGON2ID = 2;
import { dictionary } from '@zxcvbn-ts/language-common';
import { readOnce } from '../read-once';

/**
 * Argon2id at OWASP's minimum (m = 19 MiB, t = 2, p = 1; about 15 ms here). Hashes record their
 * parameters, so raising these rehashes each account at its next sign-in.
 */
export const ARGON2_PARAMETERS = {
  algorithm: ARGON2ID,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_PARAMETERS);
}

/** A valid hash of a password nobody has, to spend the same time when there is no account. */
const decoy = readOnce(() => hashPassword('decoy password that never matches'));

/** Whether `password` matches `passwordHash`; an unusable hash (a deleted account) never does. */
export async function verifyPassword(
  passwordHash: string | null,
  password: string,
): Promise<boolean> {
  if (!passwordHash || !passwordHash.startsWith('$argon2')) {
    await verify(await decoy(), password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}

/** True when a stored hash was made with other parameters than today's. */
export function needsRehash(passwordHash: string): boolean {
  const { memoryCost: m, timeCost: t, parallelism: p } = ARGON2_PARAMETERS;
  return !passwordHash.startsWith(`$argon2id$v=19$m=${m},t=${t},p=${p}$`);
}

/**
 * The 49k most common passwords (zxcvbn-ts), lowercased, for docs/product/validation.md's "not
 * common".
 */
const COMMON_PASSWORDS: ReadonlySet<string> = new Set(
  (dictionary['passwords-common'] as string[]).map((p) => p.toLowerCase()),
);

/**
 * docs/product/validation.md beyond length (which the protocol schema checks): not a common
 * password and not the username or email. Returns what is wrong in words a person understands, or
 * null.
 */
export function passwordProblem(
  password: string,
  account: { username?: string; email?: string },
): string | null {
  const lower = password.toLowerCase();
  if (COMMON_PASSWORDS.has(lower)) {
    return 'That password is one of the most common ones. Choose something less guessable.';
  }
  if (account.username && lower === account.username.toLowerCase()) {
    return 'Your password can’t be your username.';
  }
  if (
    account.email &&
    (lower === account.email.toLowerCase() || lower === account.email.split('@')[0]?.toLowerCase())
  ) {
    return 'Your password can’t be your email address.';
  }
  return null;
}

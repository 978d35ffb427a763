import { addressKey, type RateLimiter, rateLimited } from './rate-limits';

/**
 * How sign-in guesses are limited without letting anyone lock the owner out of their account
 * (OWASP's Authentication Cheat Sheet, "Account Lockout": count failures per account
 * and address, not every attempt per account).
 *
 * - Every attempt counts against its address (`loginPerIp`, in the account service), before
 *   anything else: that only ever stops the address making it.
 * - Only wrong passwords count against an account, and per address: ten from one address in a
 *   minute stop that address, for that account. The owner at another address is not affected.
 * - Wrong passwords from every address count against the account too. Past that threshold (many
 *   addresses guessing at once), an address that has already failed on the account gets one guess
 *   per window instead of ten. An address that has not failed is never refused here, so the right
 *   password from the owner's own device still signs in during an attack.
 *
 * Logins are counted as typed (trimmed, lowercase), never by the account they name: an unknown
 * login is counted exactly like an account's, and an account's username and email count apart,
 * so the answers never tell whether an account exists, or which email is whose. (That gives a
 * guesser the per-address allowance once for each of the two; no more.) A successful sign-in resets nothing: the counts are failures in
 * a window and simply run out. Clearing them on success would hand an attacker who shares the
 * owner's address (a household, an office) fresh guesses each time the owner signs in, and would
 * end the account-wide count in the middle of an attack.
 *
 * Counts are read before the password is checked and written after it fails, so requests racing
 * from one address may get a few guesses past a limit; `loginPerIp`, counted atomically first,
 * bounds that.
 */
export function createLoginLimits(rateLimiter: RateLimiter) {
  const pair = (login: string, ip: string | null) =>
    `${login}|${ip ? addressKey(ip) : 'unknown address'}`;

  return {
    /** Throws rate_limited when this address may not try a password for `login` now. */
    async admit(login: string, ip: string | null): Promise<void> {
      const [here, everywhere] = await Promise.all([
        rateLimiter.peek('loginFailuresPerAccountAddress', pair(login, ip)),
        rateLimiter.peek('loginFailuresPerAccount', login),
      ]);
      const allowed = everywhere.count >= everywhere.limit ? 1 : here.limit;
      if (here.count >= allowed) {
        throw rateLimited(here.retryAfter, {
          what: 'Too many wrong passwords.',
          orElse: ', or reset your password',
        });
      }
    },

    /** Counts a wrong password for `login` from `ip`. */
    async failed(login: string, ip: string | null): Promise<void> {
      await Promise.all([
        rateLimiter.record('loginFailuresPerAccountAddress', pair(login, ip)),
        rateLimiter.record('loginFailuresPerAccount', login),
      ]);
    },
  };
}

export type LoginLimits = ReturnType<typeof createLoginLimits>;

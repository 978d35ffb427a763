import { usernameAvailabilitySchema, type UsernameAvailability } from '@pipit/protocol';
import { useEffect, useState } from 'react';
import { apiGet } from '../../platform/api/request';

/** Debounce of the availability check while someone types. */
const CHECK_DELAY_MS = 350;

/**
 * Whether a username is free, asked of the server as the person types (after a short pause).
 * `unchanged` is the name the account already has: it is theirs.
 */
export function useUsernameAvailability(username: string, unchanged?: string) {
  const [result, setResult] = useState<UsernameAvailability | null>(null);
  const name = username.trim().toLowerCase();
  const skip = name.length === 0 || name === unchanged;
  useEffect(() => {
    if (skip) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      apiGet(`/api/usernames/${encodeURIComponent(name)}`, usernameAvailabilitySchema, {
        signal: controller.signal,
      }).then(setResult, () => setResult(null));
    }, CHECK_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [name, skip]);
  return skip || result?.username !== name ? null : result;
}

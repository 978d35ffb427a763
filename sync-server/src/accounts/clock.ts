/** Time, injectable so tests can move it (token expiry, username release, rate windows). */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

import { type Challenge, createChallenge, randomInt, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { z } from 'zod';
import {
  HUMAN_CHECK_HEADER,
  HUMAN_CHECK_METHOD_HEADER,
  HUMAN_CHECK_PATH_HEADER,
  isProtectedEndpoint,
  protectedEndpoint,
} from '@pipit/protocol';
import { ServiceError } from '../service-error';
import { readOnce } from '../read-once';
import type { Storage } from '../storage/types';
import type { Clock } from './clock';
import { randomToken } from './random';

/** How long a challenge may take from being issued to being used. */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;

/**
 * ALTCHA proof of work, v2, iterated SHA-256 with one round per try: the solver tries counters
 * from 0 until one reproduces the key the server derived from a random counter in
 * [difficulty / 2, difficulty]. The default (5,000) takes well under a second on a phone (see
 * bench/human-check); HUMAN_CHECK_DIFFICULTY tunes it.
 */
export const DEFAULT_DIFFICULTY = 5_000;

const payloadSchema = z.object({
  challenge: z.object({
    parameters: z.looseObject({
      algorithm: z.string(),
      nonce: z.string(),
      salt: z.string(),
      cost: z.number(),
      keyLength: z.number(),
      keyPrefix: z.string(),
      expiresAt: z.number().optional(),
      data: z
        .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))
        .optional(),
    }),
    signature: z.string().max(256),
  }),
  solution: z.object({ counter: z.number(), derivedKey: z.string().max(256) }),
});

const failed = (message: string) => new ServiceError('human_check_failed', message);

export interface HumanCheck {
  createChallenge(path: string, method: string): Promise<Challenge>;
  /** Throws human_check_failed unless the headers carry an unused solution for this request. */
  verify(headers: Headers, path: string, method: string): Promise<void>;
  /** Resolves once the check can work (its secrets are read); `/api/ready` asks. */
  ready(): Promise<void>;
}

export function createHumanCheck(options: {
  storage: Storage;
  difficulty: number;
  clock: Clock;
  challengeTtlMs?: number;
}): HumanCheck {
  const { storage, difficulty, clock } = options;
  const ttl = options.challengeTtlMs ?? CHALLENGE_TTL_MS;
  // Shared by every instance on the same database, created by the first one; a failed read is
  // tried again by the next request (read-once.ts).
  const getSecrets = readOnce(() =>
    Promise.all([
      storage.secrets.getOrCreate('human-check-signature', randomToken),
      storage.secrets.getOrCreate('human-check-key-signature', randomToken),
    ]).then(([signature, key]) => ({ signature, key })),
  );

  return {
    async ready() {
      await getSecrets();
    },

    async createChallenge(path, method) {
      const { signature, key } = await getSecrets();
      const size = difficulty * (protectedEndpoint(method, path)?.weight ?? 1);
      return createChallenge({
        algorithm: 'SHA-256',
        cost: 1,
        counter: randomInt(Math.floor(size / 2), size),
        deriveKey,
        expiresAt: new Date(clock.now() + ttl),
        data: { path, method: method.toUpperCase() },
        hmacSignatureSecret: signature,
        hmacKeySignatureSecret: key,
      });
    },

    async verify(headers, path, method) {
      const raw = headers.get(HUMAN_CHECK_HEADER);
      if (!raw) {
        throw failed(
          'This form needs a quick check that you are a person, and it did not arrive. Reload the page and try again.',
        );
      }
      if (
        headers.get(HUMAN_CHECK_PATH_HEADER) !== path ||
        headers.get(HUMAN_CHECK_METHOD_HEADER)?.toUpperCase() !== method.toUpperCase()
      ) {
        throw failed('The check that you are a person was made for another request. Try again.');
      }
      let payload: z.infer<typeof payloadSchema>;
      try {
        payload = payloadSchema.parse(JSON.parse(Buffer.from(raw, 'base64').toString('utf8')));
      } catch {
        throw failed(
          'The check that you are a person could not be read. Reload the page and try again.',
        );
      }
      const { challenge, solution } = payload;
      const data = challenge.parameters.data ?? {};
      if (
        data.path !== path ||
        data.method !== method.toUpperCase() ||
        !isProtectedEndpoint(method, path)
      ) {
        throw failed('The check that you are a person was made for another request. Try again.');
      }
      const { signature, key } = await getSecrets();
      const result = await verifySolution({
        challenge: challenge as Challenge,
        solution,
        deriveKey,
        hmacSignatureSecret: signature,
        hmacKeySignatureSecret: key,
      });
      if (result.expired) {
        throw failed('The check that you are a person took too long and expired. Try again.');
      }
      if (!result.verified) {
        throw failed('We could not confirm that you are a person. Reload the page and try again.');
      }
      const expiresAt = (challenge.parameters.expiresAt ?? 0) * 1000;
      if (!(await storage.humanChecks.consume(challenge.signature, expiresAt, clock.now()))) {
        throw failed('That check was already used. Each request needs a new one: try again.');
      }
    },
  };
}

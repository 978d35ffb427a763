import webpush from 'web-push';
import type { PushConfig } from '../config';
import type { Logger } from '../logger';
import type { Storage } from '../storage/types';

/** What signs every push: the key pair and the contact push services may write to. */
export interface VapidDetails {
  subject: string;
  publicKey: string;
  privateKey: string;
}

export interface VapidKeys {
  /**
   * The pair from the environment, else the one kept in the database (made by the first instance
   * to need it). Read once and kept; a failed read is not kept, so the next call reads again.
   */
  get(): Promise<VapidDetails>;
}

/** The `server_secrets` row that keeps a generated pair, as JSON. */
export const VAPID_SECRET_NAME = 'vapid_keys';

function parseKept(value: string): { publicKey: string; privateKey: string } {
  const parsed = JSON.parse(value) as unknown;
  if (
    parsed &&
    typeof parsed === 'object' &&
    typeof (parsed as Record<string, unknown>).publicKey === 'string' &&
    typeof (parsed as Record<string, unknown>).privateKey === 'string'
  ) {
    const { publicKey, privateKey } = parsed as { publicKey: string; privateKey: string };
    return { publicKey, privateKey };
  }
  throw new Error(`The ${VAPID_SECRET_NAME} server secret is not a key pair.`);
}

/**
 * VAPID keys (docs/decisions/0012-web-push-and-scheduler.md#vapid-keys). Without VAPID_PUBLIC_KEY
 * and VAPID_PRIVATE_KEY, a pair is generated and stored with an insert that does nothing when a
 * pair is there already, then read back: every instance on one database signs with the same pair,
 * and a restart keeps it (subscriptions are bound to the key they were made with).
 *
 * Once the pair is known, subscriptions made with another key are deleted: push services refuse
 * them all after a key change, which is an operator's act.
 */
export function createVapidKeys(options: {
  config: PushConfig;
  storage: Pick<Storage, 'secrets' | 'pushSubscriptions'>;
  logger: Logger;
}): VapidKeys {
  const { config, storage, logger } = options;
  let known: Promise<VapidDetails> | undefined;

  async function load(): Promise<VapidDetails> {
    const pair =
      config.keys ??
      parseKept(
        await storage.secrets.getOrCreate(VAPID_SECRET_NAME, () =>
          JSON.stringify(webpush.generateVAPIDKeys()),
        ),
      );
    const dropped = await storage.pushSubscriptions.deleteForOtherKeys(pair.publicKey);
    if (dropped > 0) {
      logger.warn(
        { dropped, publicKey: pair.publicKey },
        'the VAPID keys changed: push subscriptions made with the old key were deleted (browsers subscribe again when their app opens)',
      );
    }
    return { subject: config.subject, ...pair };
  }

  return {
    get() {
      const loading = (known ??= load());
      loading.catch(() => {
        // Forgotten only if it is still the one kept: a later success is never thrown away.
        if (known === loading) known = undefined;
      });
      return loading;
    },
  };
}

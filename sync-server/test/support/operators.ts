import { systemClock } from '../../src/accounts/clock';
import { createOperators } from '../../src/accounts/operators';
import type { Storage, UserRecord } from '../../src/storage/types';

/**
 * Confirms the account's email (as its emailed link would) and makes it an operator the way
 * `npm run operator -- add USERNAME` does.
 */
export async function makeOperator(storage: Storage, username: string): Promise<UserRecord> {
  const user = await storage.users.findByUsername(username);
  if (!user) throw new Error(`no account ${username}`);
  await storage.users.update(user.id, { emailVerifiedAt: user.emailVerifiedAt ?? Date.now() });
  return (await createOperators({ storage, clock: systemClock }).add(username)).user;
}

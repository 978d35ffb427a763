import type { Storage, UserRecord } from '../storage/types';
import type { Clock } from './clock';

/** A refusal the operator command explains as it is; nothing was changed. */
export class OperatorError extends Error {}

/** One operator as `npm run operator -- list` shows it. */
export interface OperatorListing {
  userId: string;
  addedAt: number;
  /** Null once the account is deleted. */
  username: string | null;
  email: string | null;
  /** Why the account does not see the inbox now, if it does not. */
  inactive: 'account deleted' | 'email not confirmed' | null;
}

/**
 * Operators are accounts, by id (never usernames: a name can be given up and taken by someone
 * else). An operator also needs a live account whose email is confirmed, checked on every request:
 * deleting the account, or anything that leaves its address unconfirmed, ends the role at once. A
 * pending email change does not: the confirmed address stays the account's until the new one is
 * confirmed in turn.
 */
export function createOperators({ storage, clock }: { storage: Storage; clock: Clock }) {
  /** The live account with this username, or a refusal saying there is none. */
  async function accountNamed(username: string): Promise<UserRecord> {
    const user = await storage.users.findByUsername(username.trim());
    if (!user) throw new OperatorError(`No account is called “${username.trim()}”.`);
    return user;
  }

  /**
   * Whether `user`, a live account as read for the current request, is an operator: confirmed, and
   * listed (read from storage each time, so removing an operator applies on the next request).
   */
  async function isOperatorAccount(user: UserRecord | null | undefined): Promise<boolean> {
    return !!user && user.emailVerifiedAt !== null && (await storage.operators.has(user.id));
  }

  return {
    isOperatorAccount,

    /** Reads the account from storage: a record a caller holds may be out of date. */
    async isOperator(userId: string | null | undefined): Promise<boolean> {
      return !!userId && isOperatorAccount(await storage.users.findById(userId));
    },

    /** Makes the account called `username` now an operator; returns it and whether it was new. */
    async add(username: string): Promise<{ user: UserRecord; added: boolean }> {
      const user = await accountNamed(username);
      if (user.emailVerifiedAt === null) {
        throw new OperatorError(
          `${user.username} has not confirmed their email address yet, and operators need a confirmed one. ` +
            'Ask them to open the link Pipit emailed them (Account settings can send it again), then try again.',
        );
      }
      return { user, added: await storage.operators.add(user.id, clock.now()) };
    },

    /**
     * Ends the role of the account called `nameOrId` (its current username, or its id as `list`
     * shows it, for an account that was deleted). Returns the id, or null if it was not one.
     */
    async remove(nameOrId: string): Promise<string | null> {
      const wanted = nameOrId.trim();
      // An operator's id first: an id can also be a valid username, which someone could take.
      if (await storage.operators.remove(wanted)) return wanted;
      const user = await storage.users.findByUsername(wanted);
      return user && (await storage.operators.remove(user.id)) ? user.id : null;
    },

    async list(): Promise<OperatorListing[]> {
      const operators = await storage.operators.list();
      const users = await storage.users.findByIds(operators.map((o) => o.userId));
      return operators.map(({ userId, addedAt }) => {
        const user = users.get(userId);
        return {
          userId,
          addedAt,
          username: user?.username ?? null,
          email: user?.email ?? null,
          inactive: !user
            ? 'account deleted'
            : user.emailVerifiedAt === null
              ? 'email not confirmed'
              : null,
        };
      });
    },
  };
}

export type Operators = ReturnType<typeof createOperators>;

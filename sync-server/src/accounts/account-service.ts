import { createId, isReservedUsername, type SignupRequest } from '@pipit/protocol';
import { createDigest } from '../digest';
import { ServiceError } from '../service-error';
import type { Logger } from '../logger';
import { ConflictError, type Storage, type TokenKind, type UserRecord } from '../storage/types';
import type { Clock } from './clock';
import {
  confirmEmailChangeMessage,
  emailChangeNoticeMessage,
  passwordChangedMessage,
  resetPasswordMessage,
  verifyEmailMessage,
} from './emails';
import { createLoginLimits } from './login-limits';
import type { Mailer, MailMessage } from './mailer';
import { hashPassword, needsRehash, passwordProblem, verifyPassword } from './passwords';
import { randomToken, sha256Hex } from './random';
import type { RateLimiter } from './rate-limits';
import type { Authenticated, SessionService } from './sessions';
import { nameOf } from './views';

const HOUR_MS = 60 * 60 * 1000;
/** How long each emailed link works. */
export const TOKEN_TTL_MS: Record<TokenKind, number> = {
  verify_email: 48 * HOUR_MS,
  reset_password: 1 * HOUR_MS,
  change_email: 24 * HOUR_MS,
};

export interface RequestMeta {
  userAgent: string | null;
  ip: string | null;
}

export interface SignedIn {
  user: UserRecord;
  cookieValue: string;
  maxAgeSeconds: number;
}

export interface AccountDependencies {
  storage: Storage;
  sessions: SessionService;
  mailer: Mailer;
  rateLimiter: RateLimiter;
  clock: Clock;
  logger: Logger;
  /** The origin emailed links point to: PUBLIC_ORIGIN, never a request's Host header. */
  linkBase: () => string;
  /** How long a username given up (by a rename or a deletion) stays unavailable to others. */
  usernameHoldMs: number;
  /** Removes a deleted account's apps and documents (collab/data-removal.ts). */
  removeAccountData: (userId: string) => Promise<void>;
}

/** How emails greet a person. */

const invalidCredentials = () =>
  new ServiceError(
    'invalid_credentials',
    'That username or email and password don’t match. Check them, or reset your password.',
  );

const wrongPassword = () =>
  new ServiceError('invalid_credentials', 'That password isn’t right.', {
    fields: { password: 'That password isn’t right.' },
  });

function tokenError(outcome: 'invalid' | 'expired' | 'used'): ServiceError {
  switch (outcome) {
    case 'expired':
      return new ServiceError('token_expired', 'This link has expired. Ask for a new one.');
    case 'used':
      return new ServiceError(
        'token_used',
        'This link was already used, or a newer one replaced it. Ask for a new one if you still need it.',
      );
    default:
      return new ServiceError(
        'token_invalid',
        'This link isn’t valid. Check that you copied all of it.',
      );
  }
}

function weakPassword(problem: string, field: string): ServiceError {
  return new ServiceError('validation_failed', problem, { fields: { [field]: problem } });
}

/**
 * The account flows: sign-up, sign-in, email verification, password reset and change,
 * email change, deletion. Each failure is a product error (docs/product/errors.md) and changes
 * nothing.
 */
export function createAccountService(deps: AccountDependencies) {
  const tools = accountTools(deps);
  return {
    ...signupAndSignIn(deps, tools),
    ...emailVerification(deps, tools),
    ...passwordFlows(deps, tools),
    ...emailChange(deps, tools),
    ...accountEnd(deps, tools),
  };
}

/**
 * What the account flows share: mail sent in the background, emailed links and their tokens,
 * sessions, held usernames, password checks.
 */
function accountTools(deps: AccountDependencies) {
  const { storage, sessions, mailer, rateLimiter, clock, logger } = deps;

  /** Mail goes out in the background: a slow relay never delays or reveals anything. */
  function deliver(message: MailMessage): void {
    mailer.send(message).catch((error: unknown) => {
      logger.error(
        { err: error, to: message.to, digest: createDigest() },
        'sending an email failed',
      );
    });
  }

  async function issueToken(kind: TokenKind, user: UserRecord, email: string): Promise<string> {
    const now = clock.now();
    await storage.tokens.revokeForUser(user.id, kind, now);
    const token = randomToken();
    await storage.tokens.insert({
      hash: sha256Hex(token),
      kind,
      userId: user.id,
      email,
      createdAt: now,
      expiresAt: now + TOKEN_TTL_MS[kind],
    });
    return token;
  }

  /**
   * Ends every emailed link of an account and any pending email change: after a password reset or
   * change (someone else may have had the account) and once an email change is confirmed.
   */
  async function revokeLinks(userId: string): Promise<void> {
    await storage.tokens.revokeForUser(userId, null, clock.now());
  }

  async function consumeToken(kind: TokenKind, token: string) {
    const use = await storage.tokens.consume(sha256Hex(token), kind, clock.now());
    if (use.outcome !== 'consumed') throw tokenError(use.outcome);
    const user = await storage.users.findById(use.userId);
    if (!user) throw tokenError('invalid');
    return { user, email: use.email };
  }

  /**
   * An emailed link; `next` is where the person was going (an invitation they signed up from), so
   * the link brings them back there even when opened in another tab or on another device.
   */
  const link = (page: string, token: string, next?: string) =>
    `${deps.linkBase()}${page}?token=${token}${next ? `&next=${encodeURIComponent(next)}` : ''}`;

  async function sendVerification(user: UserRecord, next?: string): Promise<void> {
    const token = await issueToken('verify_email', user, user.email);
    deliver(verifyEmailMessage(user.email, nameOf(user), link('/verify-email', token, next)));
  }

  async function signIn(user: UserRecord, meta: RequestMeta): Promise<SignedIn> {
    const { cookieValue, maxAgeSeconds } = await sessions.create(user.id, meta);
    return { user, cookieValue, maxAgeSeconds };
  }

  /**
   * Frees a username whose hold has passed. Every way of taking a name calls this first; the one
   * hold serves names given up by a rename and by a deletion alike.
   */
  function releaseHeldUsername(username: string): Promise<boolean> {
    return storage.users.releaseUsername(username, clock.now() - deps.usernameHoldMs);
  }

  /** Confirms a signed-in person's password; guesses are limited like sign-ins. */
  async function requirePassword(user: UserRecord, password: string): Promise<void> {
    await rateLimiter.enforce('passwordCheckPerAccount', user.id);
    if (!(await verifyPassword(user.passwordHash, password))) throw wrongPassword();
  }

  return {
    deliver,
    issueToken,
    revokeLinks,
    consumeToken,
    link,
    sendVerification,
    signIn,
    releaseHeldUsername,
    requirePassword,
  };
}

type AccountTools = ReturnType<typeof accountTools>;

/** Making an account and signing in to it. */
function signupAndSignIn(deps: AccountDependencies, tools: AccountTools) {
  const { storage, rateLimiter, clock } = deps;
  const { sendVerification, signIn, releaseHeldUsername } = tools;
  const loginLimits = createLoginLimits(rateLimiter);
  return {
    async signup(input: SignupRequest, meta: RequestMeta): Promise<SignedIn> {
      await rateLimiter.enforce('signupPerIp', meta.ip ?? 'unknown');
      const problem = passwordProblem(input.password, input);
      if (problem) throw weakPassword(problem, 'password');
      await releaseHeldUsername(input.username);
      let user: UserRecord;
      try {
        user = await storage.users.insert({
          id: createId(),
          username: input.username,
          email: input.email,
          passwordHash: await hashPassword(input.password),
          createdAt: clock.now(),
        });
      } catch (error) {
        if (error instanceof ConflictError && error.field === 'email') {
          throw new ServiceError(
            'email_taken',
            'An account already uses this email. Sign in, or reset your password.',
            {
              fields: { email: 'An account already uses this email.' },
            },
          );
        }
        if (error instanceof ConflictError) {
          throw new ServiceError('username_taken', 'That username is taken. Try another.', {
            fields: { username: 'That username is taken.' },
          });
        }
        throw error;
      }
      await sendVerification(user, input.next);
      return signIn(user, meta);
    },

    async login(input: { login: string; password: string }, meta: RequestMeta): Promise<SignedIn> {
      // Every attempt counts against its address first; a login counts only wrong passwords,
      // per address, so no one elsewhere can lock its owner out (login-limits.ts). A login is
      // counted as typed, before it is looked up: an account's username and email count apart,
      // exactly like two strangers' (or no one's), so no answer tells what belongs together.
      await rateLimiter.enforce('loginPerIp', meta.ip ?? 'unknown');
      const login = input.login.trim().toLowerCase();
      await loginLimits.admit(login, meta.ip);
      const user = input.login.includes('@')
        ? await storage.users.findByEmail(input.login)
        : await storage.users.findByUsername(input.login);
      // Without an account, a decoy verification takes the same time: no enumeration by timing.
      if (!(await verifyPassword(user?.passwordHash ?? null, input.password)) || !user) {
        await loginLimits.failed(login, meta.ip);
        throw invalidCredentials();
      }
      const current = needsRehash(user.passwordHash)
        ? await storage.users.update(user.id, { passwordHash: await hashPassword(input.password) })
        : user;
      return signIn(current, meta);
    },
  };
}

/** Proving an email address is theirs. */
function emailVerification(deps: AccountDependencies, tools: AccountTools) {
  const { storage, rateLimiter, clock } = deps;
  const { consumeToken, sendVerification } = tools;
  return {
    async verifyEmail(token: string): Promise<UserRecord> {
      const { user, email } = await consumeToken('verify_email', token);
      // A link sent to an address the account no longer uses proves nothing.
      if (email !== user.email) throw tokenError('invalid');
      return user.emailVerifiedAt
        ? user
        : storage.users.update(user.id, { emailVerifiedAt: clock.now() });
    },

    async resendVerification(auth: Authenticated): Promise<void> {
      if (auth.user.emailVerifiedAt) return;
      await rateLimiter.enforce('resendVerificationPerAccount', auth.user.id);
      await sendVerification(auth.user);
    },
  };
}

/** A forgotten password reset through an emailed link, and a password changed. */
function passwordFlows(deps: AccountDependencies, tools: AccountTools) {
  const { storage, sessions, rateLimiter, clock, logger } = deps;
  const { deliver, issueToken, revokeLinks, consumeToken, link, signIn, requirePassword } = tools;
  return {
    /** The same answer for known and unknown addresses (no account enumeration). */
    async forgotPassword(email: string, next?: string): Promise<void> {
      await rateLimiter.enforce('resetPerEmail', email);
      const user = await storage.users.findByEmail(email);
      if (!user) return;
      // The link is made and sent after the answer, so a known address takes no longer to answer.
      setImmediate(() => {
        issueToken('reset_password', user, user.email).then(
          (token) =>
            deliver(
              resetPasswordMessage(user.email, nameOf(user), link('/reset-password', token, next)),
            ),
          (error: unknown) =>
            logger.error({ err: error, digest: createDigest() }, 'making a reset link failed'),
        );
      });
    },

    /** A new password signs out every session; this browser gets a fresh one. */
    async resetPassword(
      input: { token: string; password: string },
      meta: RequestMeta,
    ): Promise<SignedIn> {
      // The password is checked before the link is spent, so a refused password can be retried.
      const pending = await storage.tokens.find(sha256Hex(input.token));
      const owner =
        pending?.kind === 'reset_password' ? await storage.users.findById(pending.userId) : null;
      if (owner) {
        const problem = passwordProblem(input.password, owner);
        if (problem) throw weakPassword(problem, 'password');
      }
      const { user, email } = await consumeToken('reset_password', input.token);
      // A link sent to an address the account no longer uses proves nothing.
      if (email !== user.email) throw tokenError('invalid');
      const updated = await storage.users.update(user.id, {
        passwordHash: await hashPassword(input.password),
        // The link proved the address is theirs.
        emailVerifiedAt: user.emailVerifiedAt ?? clock.now(),
        // Someone else may have had the account: their pending email change ends here too.
        pendingEmail: null,
      });
      await revokeLinks(user.id);
      await sessions.revokeAll(user.id);
      return signIn(updated, meta);
    },

    /** Other devices are signed out; this one stays signed in. */
    async changePassword(
      auth: Authenticated,
      input: { currentPassword: string; newPassword: string },
    ): Promise<void> {
      await requirePassword(auth.user, input.currentPassword).catch(() => {
        throw new ServiceError('invalid_credentials', 'Your current password isn’t right.', {
          fields: { currentPassword: 'Your current password isn’t right.' },
        });
      });
      const problem = passwordProblem(input.newPassword, auth.user);
      if (problem) throw weakPassword(problem, 'newPassword');
      await storage.users.update(auth.user.id, {
        passwordHash: await hashPassword(input.newPassword),
        pendingEmail: null,
      });
      await revokeLinks(auth.user.id);
      await sessions.revokeAll(auth.user.id, auth.session.id);
      deliver(passwordChangedMessage(auth.user.email, nameOf(auth.user)));
    },
  };
}

/** A new email address, taken once the link sent to it is opened. */
function emailChange(deps: AccountDependencies, tools: AccountTools) {
  const { storage, sessions, rateLimiter, clock } = deps;
  const { deliver, issueToken, revokeLinks, consumeToken, link, requirePassword } = tools;
  return {
    async requestEmailChange(
      auth: Authenticated,
      input: { email: string; password: string },
    ): Promise<UserRecord> {
      await rateLimiter.enforce('emailChangePerAccount', auth.user.id);
      await requirePassword(auth.user, input.password);
      if (input.email === auth.user.email) {
        throw new ServiceError('validation_failed', 'That is already your email address.', {
          fields: { email: 'That is already your email address.' },
        });
      }
      if (await storage.users.findByEmail(input.email)) {
        throw new ServiceError('email_taken', 'Another account already uses that email.', {
          fields: { email: 'Another account already uses that email.' },
        });
      }
      const user = await storage.users.update(auth.user.id, { pendingEmail: input.email });
      const token = await issueToken('change_email', user, input.email);
      const name = nameOf(user);
      deliver(confirmEmailChangeMessage(input.email, name, link('/confirm-email-change', token)));
      deliver(emailChangeNoticeMessage(user.email, name, input.email));
      return user;
    },

    /** The new address takes effect and every session ends: sign in again with it. */
    async confirmEmailChange(token: string): Promise<UserRecord> {
      const emailTaken = () =>
        new ServiceError(
          'email_taken',
          'Another account started using that email in the meantime.',
        );
      // Refuse an address someone else took before spending the link, so nothing changes.
      const pending = await storage.tokens.find(sha256Hex(token));
      if (pending?.kind === 'change_email' && pending.usedAt === null && pending.email) {
        const holder = await storage.users.findByEmail(pending.email);
        if (holder && holder.id !== pending.userId) throw emailTaken();
      }
      const { user, email } = await consumeToken('change_email', token);
      if (!email || email !== user.pendingEmail) throw tokenError('used');
      let updated: UserRecord;
      try {
        updated = await storage.users.update(user.id, {
          email,
          pendingEmail: null,
          emailVerifiedAt: clock.now(),
        });
      } catch (error) {
        if (error instanceof ConflictError) {
          // Taken between the check and the change: the request is over, say so.
          await storage.users.update(user.id, { pendingEmail: null });
          throw emailTaken();
        }
        throw error;
      }
      // Links sent to the old address (a password reset) no longer prove anything.
      await revokeLinks(user.id);
      await sessions.revokeAll(user.id);
      return updated;
    },
  };
}

/** Deleting the account, and the usernames given up (held a while before anyone may take them). */
function accountEnd(deps: AccountDependencies, tools: AccountTools) {
  const { storage, sessions, clock } = deps;
  const { releaseHeldUsername, requirePassword } = tools;
  return {
    /**
     * docs/product/accounts.md: sessions revoked, data removed, the username released after the
     * hold. Sessions end first, so no device of theirs reopens a document being deleted; the
     * account is marked deleted last, so if removing the data fails they can sign in and delete it
     * again.
     */
    async deleteAccount(auth: Authenticated, password: string): Promise<void> {
      await requirePassword(auth.user, password);
      await sessions.revokeAll(auth.user.id);
      await deps.removeAccountData(auth.user.id);
      await storage.uploads.deleteForUser(auth.user.id);
      await storage.users.markDeleted(auth.user.id, clock.now());
    },

    /** `asker`, when signed in, may take back a name they gave up: it is available to them. */
    async usernameAvailability(
      username: string,
      asker?: string,
    ): Promise<{ available: boolean; reason?: string }> {
      if (isReservedUsername(username))
        return { available: false, reason: 'That name is reserved. Try another.' };
      await releaseHeldUsername(username);
      return (await storage.users.usernameInUse(username, asker))
        ? { available: false, reason: 'That username is taken. Try another.' }
        : { available: true };
    },

    releaseHeldUsername,
  };
}

export type AccountService = ReturnType<typeof createAccountService>;

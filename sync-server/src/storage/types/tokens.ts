export type TokenKind = 'verify_email' | 'reset_password' | 'change_email';

export interface NewToken {
  hash: string;
  kind: TokenKind;
  userId: string;
  /** The address the token is about (verification, the new address of an email change). */
  email: string | null;
  createdAt: number;
  expiresAt: number;
}

export type TokenUse =
  | { outcome: 'consumed'; userId: string; email: string | null }
  | { outcome: 'invalid' | 'expired' | 'used' };

export interface TokenStore {
  insert(token: NewToken): Promise<void>;
  /** Reads a token without using it; `consume` is what makes it count. */
  find(hash: string): Promise<(NewToken & { usedAt: number | null }) | null>;
  /**
   * Marks a token used and returns whose it is — exactly once, even when several requests race:
   * the first one consumes it, every other one is told it was used.
   */
  consume(hash: string, kind: TokenKind, now: number): Promise<TokenUse>;
  /**
   * Makes every unused token of that kind for the user unusable (a new link replaces old ones);
   * every kind when `kind` is null.
   */
  revokeForUser(userId: string, kind: TokenKind | null, now: number): Promise<void>;
}

import type { HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';
import type { Authenticated } from '../accounts/sessions';
import type { Logger } from '../logger';
import { ApiError } from './api-error';
import type { RequestMeta } from '../accounts/account-service';

export interface ApiEnv {
  Bindings: HttpBindings;
  Variables: {
    logger: Logger;
    /** The signed-in person, resolved from the session cookie for every request. */
    auth: Authenticated | null;
    meta: RequestMeta;
    /** Whether cookies may be Secure (the site is served over https). */
    secure: boolean;
  };
}

export type ApiContext = Context<ApiEnv>;

/** The signed-in person, or `unauthenticated` for everyone else. */
export function requireAuth(c: ApiContext): Authenticated {
  const auth = c.get('auth');
  if (!auth) throw new ApiError('unauthenticated', 'Sign in to do this.');
  return auth;
}

/** A person as an answer names them: their username and display name, never their id. */
export const namedPerson = (
  person: { username: string; displayName: string } | null,
): { username: string; displayName: string } | null =>
  person ? { username: person.username, displayName: person.displayName } : null;

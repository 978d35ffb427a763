import type { Hono } from 'hono';
import {
  forgotPasswordRequestSchema,
  loginRequestSchema,
  resetPasswordRequestSchema,
  signupRequestSchema,
  tokenRequestSchema,
} from '@pipit/protocol';
import type { SignedIn } from '../accounts/account-service';
import { clearSessionCookie, serializeSessionCookie } from '../accounts/session-cookie';
import { toAccount } from '../accounts/views';
import type { ApiDependencies } from './api-dependencies';
import { readJsonBody } from './body';
import { type ApiContext, type ApiEnv, requireAuth } from './context';

/** Rotates the session: the old one (if any) ends, the new one goes into the cookie. */
async function startSession(c: ApiContext, deps: ApiDependencies, signedIn: SignedIn) {
  const previous = c.get('auth');
  if (previous) await deps.sessions.revoke(previous.session.id);
  c.header(
    'Set-Cookie',
    serializeSessionCookie(signedIn.cookieValue, signedIn.maxAgeSeconds, c.get('secure')),
  );
  return { account: toAccount(signedIn.user) };
}

/** Sign-up, sign-in, sign-out and the emailed links (docs/product/routes.md account routes). */
export function registerAuth(app: Hono<ApiEnv>, deps: ApiDependencies): void {
  const { accounts } = deps;

  app.get('/auth/session', (c) => {
    const auth = c.get('auth');
    return c.json({ account: auth ? toAccount(auth.user) : null });
  });

  app.post('/auth/signup', async (c) => {
    const input = await readJsonBody(c.req.raw, signupRequestSchema);
    return c.json(await startSession(c, deps, await accounts.signup(input, c.get('meta'))), 201);
  });

  app.post('/auth/login', async (c) => {
    const input = await readJsonBody(c.req.raw, loginRequestSchema);
    return c.json(await startSession(c, deps, await accounts.login(input, c.get('meta'))));
  });

  app.post('/auth/logout', async (c) => {
    const auth = c.get('auth');
    if (auth) await deps.sessions.revoke(auth.session.id);
    c.header('Set-Cookie', clearSessionCookie(c.get('secure')));
    return c.body(null, 204);
  });

  app.post('/auth/verify-email', async (c) => {
    const { token } = await readJsonBody(c.req.raw, tokenRequestSchema);
    const user = await accounts.verifyEmail(token);
    const auth = c.get('auth');
    return c.json({ verified: true, account: auth?.user.id === user.id ? toAccount(user) : null });
  });

  app.post('/auth/resend-verification', async (c) => {
    await accounts.resendVerification(requireAuth(c));
    return c.json({ sent: true });
  });

  app.post('/auth/forgot-password', async (c) => {
    const { email, next } = await readJsonBody(c.req.raw, forgotPasswordRequestSchema);
    await accounts.forgotPassword(email, next);
    return c.json({ sent: true }, 202);
  });

  app.post('/auth/reset-password', async (c) => {
    const input = await readJsonBody(c.req.raw, resetPasswordRequestSchema);
    return c.json(await startSession(c, deps, await accounts.resetPassword(input, c.get('meta'))));
  });

  app.post('/auth/confirm-email-change', async (c) => {
    const { token } = await readJsonBody(c.req.raw, tokenRequestSchema);
    await accounts.confirmEmailChange(token);
    c.header('Set-Cookie', clearSessionCookie(c.get('secure')));
    return c.json({ confirmed: true });
  });
}

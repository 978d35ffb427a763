import type { Hono } from 'hono';
import { createId, messageRequestSchema } from '@pipit/protocol';
import type { ApiDependencies } from './api-dependencies';
import { readJsonBody } from './body';
import type { ApiEnv } from './context';

/** `POST /api/messages`: contact and feedback, kept for the operator (human check, rate limit). */
export function registerMessages(
  app: Hono<ApiEnv>,
  { storage, rateLimiter, clock }: ApiDependencies,
): void {
  app.post('/messages', async (c) => {
    const meta = c.get('meta');
    await rateLimiter.enforce('messagesPerIp', meta.ip ?? 'unknown');
    const input = await readJsonBody(c.req.raw, messageRequestSchema);
    const auth = c.get('auth');
    await storage.messages.insert({
      id: createId(),
      kind: input.kind,
      userId: auth?.user.id ?? null,
      email: input.email || auth?.user.email || null,
      body: input.body,
      page: input.page ?? null,
      createdAt: clock.now(),
    });
    return c.json({ received: true }, 201);
  });
}

import type { Hono } from 'hono';
import { z } from 'zod';
import { isProtectedEndpoint } from '@pipit/protocol';
import { ApiError } from './api-error';
import type { ApiDependencies } from './api-dependencies';
import type { ApiEnv } from './context';

const querySchema = z.object({ path: z.string().max(200), method: z.string().max(10) });

/** `GET /api/human-check/challenge?path=&method=`: a proof-of-work challenge for one request. */
export function registerHumanCheck(app: Hono<ApiEnv>, { humanCheck }: ApiDependencies): void {
  app.get('/human-check/challenge', async (c) => {
    const query = querySchema.safeParse(c.req.query());
    if (!query.success || !isProtectedEndpoint(query.data.method, query.data.path)) {
      throw new ApiError(
        'validation_failed',
        'Ask for a challenge for one of the protected requests.',
        {
          fields: { path: 'Not a protected request.' },
        },
      );
    }
    return c.json(
      await humanCheck.createChallenge(query.data.path, query.data.method.toUpperCase()),
    );
  });
}

import type { Hono } from 'hono';
import type { HealthResponse } from '@pipit/protocol';
import { VERSION } from '../version';
import type { ApiDependencies } from './api';
import type { ApiEnv } from './context';

/** `GET /api/health`: the process is up, on which storage engine, at which version. */
export function registerHealth(app: Hono<ApiEnv>, { storage }: ApiDependencies): void {
  app.get('/health', (c) => {
    const body: HealthResponse = { status: 'ok', storage: storage.engine, version: VERSION };
    return c.json(body);
  });
}

import type { Hono } from 'hono';
import { type ClientConfig, monitoringTunnel } from '@pipit/protocol';
import type { MonitoringConfig } from '../config';
import { formatDsn } from '../dsn';
import { VERSION } from '../version';
import type { ApiEnv } from './context';

/**
 * `GET /api/client-config`: what the browser learns at run time instead of at build time (no
 * build-time secrets) — where to report errors: the DSN `/monitoring` accepts, through the
 * same-origin tunnel, with this server's release and environment. Nothing in it is secret.
 */
export function registerClientConfig(
  app: Hono<ApiEnv>,
  { monitoring }: { monitoring: MonitoringConfig },
): void {
  const body: ClientConfig = {
    errorReporting: {
      dsn: formatDsn(monitoring.dsn),
      tunnel: monitoringTunnel(monitoring.org, monitoring.dsn.projectId, monitoring.region),
      release: VERSION,
      environment: monitoring.environment,
    },
  };
  app.get('/client-config', (c) => c.json(body));
}

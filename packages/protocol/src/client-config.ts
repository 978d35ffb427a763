import * as zm from 'zod/mini';
import { lazySchema } from './lazy-schema';

/*
 * What the browser needs to know from the server at run time: zod/mini only, in a module of its
 * own, because every page reads it (see profile-parts.ts). Nothing here is a secret: a DSN's public
 * key is public by design.
 */

/**
 * Error reporting (docs/product/error-reporting.md): the SDK reports to `dsn` through the
 * same-origin `tunnel` (`/monitoring?o=…&p=…[&r=…]`), marked with the server's release and
 * environment.
 */
export const errorReportingConfigSchema = lazySchema(() =>
  zm.object({
    dsn: zm.string(),
    tunnel: zm.string().check(zm.regex(/^\/monitoring\?/)),
    release: zm.string(),
    environment: zm.string(),
  }),
);
export type ErrorReportingConfig = zm.infer<typeof errorReportingConfigSchema>;

/** `GET /api/client-config`: `errorReporting` is null when the operator turned reporting off. */
export const clientConfigSchema = lazySchema(() =>
  zm.object({
    errorReporting: zm.nullable(errorReportingConfigSchema),
  }),
);
export type ClientConfig = zm.infer<typeof clientConfigSchema>;

/**
 * Where the server receives error reports (docs/product/error-reporting.md): the tunnel's path,
 * without its query.
 */
export const MONITORING_PATH = '/monitoring';

/** The same-origin tunnel path for an organisation, project and optional region. */
export function monitoringTunnel(org: string, project: string, region?: string): string {
  const part = (name: string, value: string) => `${name}=${encodeURIComponent(value)}`;
  const query = [part('o', org), part('p', project), ...(region ? [part('r', region)] : [])];
  return `${MONITORING_PATH}?${query.join('&')}`;
}

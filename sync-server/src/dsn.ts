/**
 * A DSN names where error reports go: `{protocol}://{publicKey}@{host}{pathPrefix}/{projectId}`
 * (the Sentry SDKs' format). The public key is not a secret — browsers send it — but together with
 * the host and project it is what `/monitoring` accepts, and an upstream DSN is the only address the
 * server ever forwards to.
 */
export interface Dsn {
  protocol: 'http:' | 'https:';
  publicKey: string;
  /** Host name and port when not the default, lowercase: `errors.example.org`, `localhost:8080`. */
  host: string;
  /** Path before the project id, without a trailing slash: `` or `/sentry`. */
  pathPrefix: string;
  projectId: string;
}

const KEY = /^[A-Za-z0-9_-]+$/;
const PROJECT_ID = /^[0-9A-Za-z_-]+$/;

/** Parses a DSN; null when it is not one (no key, no project, not http(s), a query or fragment). */
export function parseDsn(text: string): Dsn | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.search || url.hash || !KEY.test(url.username)) return null;
  const segments = url.pathname.split('/');
  const projectId = segments.pop() ?? '';
  if (!PROJECT_ID.test(projectId)) return null;
  return {
    protocol: url.protocol,
    publicKey: url.username,
    host: url.host.toLowerCase(),
    pathPrefix: segments.join('/').replace(/\/+$/, ''),
    projectId,
  };
}

export function formatDsn(dsn: Dsn): string {
  return `${dsn.protocol}//${dsn.publicKey}@${dsn.host}${dsn.pathPrefix}/${dsn.projectId}`;
}

/** The same key, host and project (scheme and path prefix aside: a proxy may change them). */
export function sameDsn(a: Dsn, b: Dsn): boolean {
  return a.publicKey === b.publicKey && a.host === b.host && a.projectId === b.projectId;
}

/** Where a collector takes envelopes for this DSN's project. */
export function envelopeEndpoint(dsn: Dsn): string {
  return `${dsn.protocol}//${dsn.host}${dsn.pathPrefix}/api/${dsn.projectId}/envelope/`;
}

/** The header a collector authenticates envelopes by. */
export function sentryAuthHeader(dsn: Dsn, client = 'pipit-tunnel/1'): string {
  return `Sentry sentry_version=7, sentry_key=${dsn.publicKey}, sentry_client=${client}`;
}

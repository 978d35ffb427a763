import { isIP } from 'node:net';

/**
 * Whether an endpoint a browser gave may be sent to. Push services are public hosts with names
 * (fcm.googleapis.com, updates.push.services.mozilla.com, web.push.apple.com, *.notify.windows.com),
 * so an address, a name without a dot or a name only a local network resolves is refused: the
 * server would otherwise POST, for anyone signed in, to hosts behind its firewall and report in
 * the subscription list whether they answered. A public name that resolves to a private address
 * is not caught here.
 */
export function isPublicPushEndpoint(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIP(host) !== 0) return false;
  if (!host.includes('.')) return false;
  return !/\.(localhost|local|internal|lan|home|arpa)\.?$/.test(host);
}

import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { DocumentAccess } from '../../src/collab/access';
import { type RunningPipit, startPipit } from '../support/start-server';
import { sleep } from '../support/timing';

/*
 * Found by the scale bench's reconnect storm: a client that gave up on a sync upgrade before the
 * server answered it (its 503 while busy, or a 401 after the session read) had the answer written
 * to a closed socket. Node takes its own error listener off a socket it hands over for an upgrade,
 * so that EPIPE was an unhandled 'error' event, and it ended the whole server.
 */

/** Sessions read as slowly as a database in a storm: the client is gone before the answer. */
const READ_MS = 150;

const slowNobody: DocumentAccess = {
  identify: async () => {
    await sleep(READ_MS);
    return null;
  },
  grantFor: () => Promise.resolve(null),
};

const upgradeRequest = (url: string) => {
  const { host } = new URL(url);
  return [
    'GET /api/sync HTTP/1.1',
    `Host: ${host}`,
    `Origin: ${url}`,
    'Connection: Upgrade',
    'Upgrade: websocket',
    'Sec-WebSocket-Version: 13',
    'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
    '',
    '',
  ].join('\r\n');
};

/**
 * Sends a websocket upgrade for the sync socket; with `vanish`, resets the connection at once and
 * resolves null, else resolves the status line of the answer.
 */
function upgrade(url: string, vanish: boolean): Promise<string | null> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(upgradeRequest(url), () => {
        if (!vanish) return;
        // An RST rather than a FIN: the server's answer meets a connection that is gone.
        socket.resetAndDestroy();
        resolve(null);
      });
    });
    socket.on('error', reject);
    socket.once('data', (chunk: Buffer) => {
      resolve(chunk.toString('latin1').split('\r\n')[0] ?? '');
      socket.destroy();
    });
  });
}

describe('a sync upgrade whose client is gone before the answer', () => {
  let pipit: RunningPipit | undefined;
  afterEach(async () => {
    await pipit?.close();
    pipit = undefined;
  });

  it('is dropped, and the server goes on serving', async () => {
    pipit = await startPipit({ access: slowNobody, resourceLimits: { openingAtOnce: 2 } });
    // Two are read slowly (answered 401 later), the rest are told busy (503) at once.
    await Promise.all(Array.from({ length: 20 }, () => upgrade(pipit!.url, true)));
    await sleep(READ_MS * 3);
    expect((await fetch(`${pipit.url}/api/health`)).status).toBe(200);
    // A client that stays is answered as before: nobody is signed in.
    expect(await upgrade(pipit.url, false)).toMatch(/^HTTP\/1.1 401\b/);
  });
});

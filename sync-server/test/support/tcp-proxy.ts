import net from 'node:net';

export interface TcpProxy {
  /** 127.0.0.1:{port} reaches the target through the proxy. */
  readonly port: number;
  /** A URL like `target` with the proxy's host and port (redis://…, postgres://…). */
  url(target: string): string;
  /**
   * Cuts the link: open connections are reset and new ones are closed as soon as they open, as a
   * network partition or a dead server looks to the client, until `restore`.
   */
  cut(): void;
  /** Every chunk waits this long each way (0: none). */
  delay(ms: number): void;
  restore(): void;
  /** New connections reach this target from now on (as a load balancer fails over). */
  retarget(target: { host: string; port: number }): void;
  /** Connections through the proxy now. */
  openConnections(): number;
  close(): Promise<void>;
}

/**
 * A small TCP proxy for fault tests (docs/scaling.md#the-fault-suite): between a Pipit instance and its Redis or
 * PostgreSQL, it cuts, delays and restores the link, so a test can make one instance lose its
 * database or its Redis while the others keep theirs.
 */
export async function startTcpProxy(initial: { host: string; port: number }): Promise<TcpProxy> {
  let target = initial;
  const sockets = new Set<net.Socket>();
  let down = false;
  let delayMs = 0;

  /** Forwards one direction, in order, each chunk after the current delay. */
  function pipe(from: net.Socket, to: net.Socket) {
    let chain = Promise.resolve();
    from.on('data', (chunk: Buffer) => {
      const wait = delayMs;
      if (wait === 0) {
        chain = chain.then(() => {
          if (!to.destroyed) to.write(chunk);
        });
        return;
      }
      chain = chain.then(
        () =>
          new Promise<void>((resolve) =>
            setTimeout(() => {
              if (!to.destroyed) to.write(chunk);
              resolve();
            }, wait),
          ),
      );
    });
    from.on('end', () => void chain.then(() => to.end()));
  }

  const server = net.createServer((client) => {
    if (down) {
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    sockets.add(client);
    sockets.add(upstream);
    const drop = () => {
      sockets.delete(client);
      sockets.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop);
    upstream.on('error', drop);
    client.on('close', drop);
    upstream.on('close', drop);
    pipe(client, upstream);
    pipe(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;

  return {
    port,
    url(given) {
      const url = new URL(given);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    cut() {
      down = true;
      for (const socket of sockets) socket.resetAndDestroy();
      sockets.clear();
    },
    delay(ms) {
      delayMs = ms;
    },
    restore() {
      down = false;
      delayMs = 0;
    },
    retarget(next) {
      target = next;
    },
    openConnections: () => sockets.size / 2,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

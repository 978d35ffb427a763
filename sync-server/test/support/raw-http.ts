import { connect, type Socket } from 'node:net';

/**
 * Sends bytes exactly as given (no URL normalisation, unlike fetch) and resolves with everything
 * the server answered before closing the connection or going quiet for `idleMs`.
 */
export function rawRequest(port: number, request: string, idleMs = 300): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(port, '127.0.0.1');
    let answer = '';
    let timer: NodeJS.Timeout | undefined;
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    socket.on('connect', () => socket.write(request));
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
      clearTimeout(timer);
      timer = setTimeout(finish, idleMs);
    });
    socket.on('end', finish);
    socket.on('close', finish);
    socket.on('error', (error) => (answer ? finish() : reject(error)));
  });
}

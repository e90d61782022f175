// The only route off the machine the real agent CLIs get in tests: HTTP(S)_PROXY points here, a proxy on
// 127.0.0.1 that forwards nothing. Every attempt (a CONNECT for https, a plain request for http) is refused and
// recorded, so a client that insists on some host other than the scripted model server fails the test loudly
// (the test asserts `attempts` is empty) instead of leaking a request.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface RefusingProxy {
  url: string;
  /** `CONNECT host:port` or `GET http://…` for each refused attempt. */
  attempts: string[];
  close(): Promise<void>;
}

export async function startRefusingProxy(): Promise<RefusingProxy> {
  const attempts: string[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    attempts.push(`${req.method} ${req.url}`);
    res.writeHead(403, { 'content-type': 'text/plain' });
    res.end('offline test: no route off 127.0.0.1');
  });
  server.on('connect', (req: http.IncomingMessage, socket: Socket) => {
    attempts.push(`CONNECT ${req.url}`);
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    attempts,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The web process's HTTP listener, with a graceful close: stop accepting, let requests finish, drop the rest. */
import { createServer, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';

/** How long requests in flight may run after close starts, in milliseconds (inside the 10 s shutdown budget). */
export const DRAIN_TIMEOUT_MS = 8_000;

/** A listening server. */
export interface HttpServer {
  server: Server;
  /** The bound port (useful when 0 was asked for). */
  port: number;
  /** Stops accepting; resolves once requests in flight are answered, destroying those busy after `drainTimeoutMs`. */
  close(drainTimeoutMs?: number): Promise<void>;
}

/** Makes the connection end after this response instead of staying open for keep-alive. */
function endAfter(res: ServerResponse): void {
  if (!res.headersSent) res.setHeader('Connection', 'close');
}

/** Listens on `port` (0: any free one) on all interfaces. @throws the listen error (e.g. EADDRINUSE). */
export async function listen(handler: RequestListener, port: number): Promise<HttpServer> {
  const inFlight = new Set<ServerResponse>();
  let closing = false;
  const server = createServer((req, res) => {
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
    // A keep-alive client may send another request on its open connection while we drain.
    if (closing) endAfter(res);
    handler(req, res);
  });
  server.listen(port);
  await once(server, 'listening');
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: (drainTimeoutMs = DRAIN_TIMEOUT_MS) =>
      new Promise<void>((resolve, reject) => {
        closing = true;
        const timer = setTimeout(() => server.closeAllConnections(), drainTimeoutMs);
        server.close((err) => {
          clearTimeout(timer);
          if (err) reject(err);
          else resolve();
        });
        // Idle keep-alive connections would hold close() open; busy ones end after their response.
        server.closeIdleConnections();
        inFlight.forEach(endAfter);
      }),
  };
}

/**
 * The HTTP listener of the web process, with a graceful close: stop
 * accepting, let requests in flight finish, then drop what is left.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';

/** How long requests in flight may run after close starts, in milliseconds (inside the 10 s shutdown budget). */
export const DRAIN_TIMEOUT_MS = 8_000;

/** A listening server. */
export interface HttpServer {
  server: Server;
  /** The bound port (useful when 0 was asked for). */
  port: number;
  /**
   * Stops accepting connections and resolves once requests in flight have
   * been answered; connections still busy after `drainTimeoutMs` are destroyed.
   */
  close(drainTimeoutMs?: number): Promise<void>;
}

/**
 * Listens on `port` (all interfaces, as a PaaS router expects).
 *
 * @param handler - Usually the Express app.
 * @param port - TCP port; 0 picks a free one.
 * @throws the listen error (e.g. EADDRINUSE).
 */
export async function listen(handler: RequestListener, port: number): Promise<HttpServer> {
  const server = createServer(handler);
  server.listen(port);
  await once(server, 'listening');
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: (drainTimeoutMs = DRAIN_TIMEOUT_MS) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => server.closeAllConnections(), drainTimeoutMs);
        server.close((err) => {
          clearTimeout(timer);
          if (err) reject(err);
          else resolve();
        });
        // Keep-alive connections with no request in flight would hold close() open.
        server.closeIdleConnections();
      }),
  };
}

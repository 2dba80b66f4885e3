/** The worker's optional metrics listener (`WORKER_METRICS_PORT`): bare HTTP, behind the web metrics' credential. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import type { Redis } from 'ioredis';
import type { OpsConfig } from './config-ops.js';
import { metricsText, trackQueueDepths } from './metrics.js';
import { operatorAllowed, type OperatorSecrets } from './ops-auth.js';
import { logger } from './logger.js';

const log = logger.child({ module: 'metrics-listener' });

/** Where and how the listener answers. */
export interface MetricsListenerOptions {
  port: number;
  host: string;
  /** Path of the metrics, for example `/metrics`. */
  path: string;
  secrets: OperatorSecrets;
}

/** A listening metrics server. */
export interface MetricsListener {
  /** The bound port (useful when 0 was asked for). */
  port: number;
  close(): Promise<void>;
}

function reply(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(body);
}

async function answer(req: IncomingMessage, res: ServerResponse, options: MetricsListenerOptions): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://metrics').pathname;
  if (path !== options.path) return reply(res, 404, JSON.stringify({ error: 'not found' }));
  if (req.method !== 'GET' && req.method !== 'HEAD') return reply(res, 405, JSON.stringify({ error: 'method not allowed' }));
  if (!operatorAllowed(req.headers.authorization, options.secrets, true)) {
    return reply(res, 401, JSON.stringify({ error: 'authentication required' }), { 'WWW-Authenticate': 'Basic realm="hc-monitor"' });
  }
  const { contentType, body } = await metricsText();
  res.writeHead(200, { 'Content-Type': contentType }).end(req.method === 'HEAD' ? undefined : body);
}

/** Starts the listener. @throws the listen error (e.g. EADDRINUSE). */
export async function startMetricsListener(options: MetricsListenerOptions): Promise<MetricsListener> {
  const server = createServer((req, res) => {
    answer(req, res, options).catch((err: unknown) => {
      log.error({ err }, 'metrics scrape failed');
      if (!res.headersSent) reply(res, 500, JSON.stringify({ error: 'internal error' }));
      else res.end();
    });
  });
  server.listen(options.port, options.host);
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** What {@link startWorkerMetrics} started. */
export interface WorkerMetrics {
  /** The listener's port, or null when WORKER_METRICS_PORT is unset. */
  port: number | null;
  /** Stops the listener and the queue depth reads. */
  close(): Promise<void>;
}

/**
 * Tracks every queue's depth on `connection` (left open by `close()`) and, with `ops.workerMetricsPort` set, serves
 * the metrics there. @throws the listen error (e.g. EADDRINUSE); nothing is left open then.
 */
export async function startWorkerMetrics(connection: Redis, ops: OpsConfig): Promise<WorkerMetrics> {
  const depths = trackQueueDepths(connection);
  let listener: MetricsListener | null = null;
  try {
    if (ops.workerMetricsPort !== null) {
      listener = await startMetricsListener({
        port: ops.workerMetricsPort,
        host: ops.workerMetricsHost,
        path: ops.metricsPath,
        secrets: { admin: ops.admin, metricsToken: ops.metricsToken },
      });
      log.info({ port: listener.port }, 'metrics listening');
    }
  } catch (err) {
    await depths.close();
    throw err;
  }
  return {
    port: listener?.port ?? null,
    close: async () => {
      await listener?.close();
      await depths.close();
    },
  };
}

/**
 * Ping throughput: autocannon against the ping handler, cycling over many
 * checks, and the same load against a bare node:http server answering "OK"
 * (the ceiling of this machine).
 */
import { createServer, type Server } from 'node:http';
import autocannon from 'autocannon';

/** One load run's figures. */
export interface LoadResult {
  /** Mean requests per second. */
  rps: number;
  /** Latency percentiles in milliseconds. */
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Responses with a 2xx status. */
  ok: number;
  non2xx: number;
  errors: number;
}

/** Load shape shared by both runs. */
export interface LoadOptions {
  connections: number;
  /** Seconds. */
  durationS: number;
}

/**
 * Fires GET requests at `origin`, path `paths[i++ % paths.length]` per request.
 *
 * @param origin - For example `http://127.0.0.1:8000`.
 */
export async function load(origin: string, paths: string[], opts: LoadOptions): Promise<LoadResult> {
  let i = 0;
  const result = await autocannon({
    url: origin,
    connections: opts.connections,
    duration: opts.durationS,
    requests: [
      {
        setupRequest: (req) => {
          req.path = paths[i++ % paths.length]!;
          return req;
        },
      },
    ],
  });
  return {
    rps: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/**
 * Starts a bare HTTP server answering `OK` on 127.0.0.1.
 *
 * @returns The server and its origin.
 */
export async function startCeilingServer(): Promise<{ server: Server; origin: string }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('OK');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return { server, origin: `http://127.0.0.1:${port}` };
}

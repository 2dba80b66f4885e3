/**
 * Ping throughput: autocannon against the ping handler, cycling over many
 * checks, and the same load against a bare node:http server answering "OK"
 * (the ceiling of this machine), each server in a process of its own.
 */
import autocannon from 'autocannon';
import { cpuMsOf, startNode, waitForHttp, type Child } from './processes.js';

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
  /** Bytes read per response, headers included (autocannon's total over its responses). */
  bytesPerResponse: number;
  /** CPU time the server's process used per request, microseconds (undefined when unknown). */
  cpuUsPerRequest?: number;
}

/** Load shape shared by both runs. */
export interface LoadOptions {
  connections: number;
  /** Seconds. */
  durationS: number;
  /** Sent with every request (e.g. `accept-encoding`); none unless given. */
  headers?: Record<string, string>;
}

/**
 * Fires GET requests at `origin`, path `paths[i++ % paths.length]` per request.
 *
 * @param origin - For example `http://127.0.0.1:8000`; several spread the connections evenly over them (as a load balancer would).
 */
export async function load(origin: string | string[], paths: string[], opts: LoadOptions): Promise<LoadResult> {
  let i = 0;
  const result = await autocannon({
    // autocannon takes several URLs (its README), its type declares one.
    url: origin as string,
    connections: opts.connections,
    duration: opts.durationS,
    headers: opts.headers,
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
    bytesPerResponse: result.requests.total > 0 ? Math.round(result.throughput.total / result.requests.total) : 0,
  };
}

/**
 * {@link load}, with the CPU time a server used per request meanwhile.
 *
 * @param cpuMs - The server's CPU time so far, milliseconds (undefined when unknown), read before and after the load.
 */
export async function loadWithCpu(origin: string, paths: string[], opts: LoadOptions, cpuMs: () => number | undefined): Promise<LoadResult> {
  const before = cpuMs();
  const result = await load(origin, paths, opts);
  const after = cpuMs();
  const cpuUsPerRequest = before === undefined || after === undefined ? undefined : Math.round(((after - before) * 1000) / result.requests);
  return { ...result, cpuUsPerRequest };
}

/**
 * {@link load}, with the CPU time `server`'s process used per request meanwhile.
 *
 * @param server - The process answering at `origin`.
 */
export async function loadOf(server: Child, origin: string, paths: string[], opts: LoadOptions): Promise<LoadResult> {
  return loadWithCpu(origin, paths, opts, () => cpuMsOf(server));
}

/**
 * The ceiling: a bare node:http server answering `OK` (or $BODY_BYTES bytes when set) on 127.0.0.1:$PORT, as its own process (CommonJS for
 * `node -e`).
 */
const CEILING_SERVER = `const body = process.env.BODY_BYTES ? Buffer.alloc(Number(process.env.BODY_BYTES), 120) : 'OK';
require('node:http').createServer((req, res) => {
  res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(body);
}).listen(Number(process.env.PORT), '127.0.0.1');`;

/**
 * Starts the bare HTTP server in a process of its own, pinned like the web
 * processes, so that it and the ping handler share nothing with the load generator.
 *
 * @param port - A free TCP port.
 * @param cpu - The CPU to pin it to (undefined: unpinned).
 * @param bodyBytes - The size of its answer's body in bytes; `OK` unless given.
 * @returns The process and its origin, once it answers.
 * @throws Error when it does not answer within 10 s.
 */
export async function startCeilingServer(port: number, cpu?: number, bodyBytes?: number): Promise<{ child: Child; origin: string }> {
  const child = startNode(['-e', CEILING_SERVER], { PORT: String(port), ...(bodyBytes === undefined ? {} : { BODY_BYTES: String(bodyBytes) }) }, cpu);
  const origin = `http://127.0.0.1:${port}`;
  await waitForHttp(origin, 10_000);
  return { child, origin };
}

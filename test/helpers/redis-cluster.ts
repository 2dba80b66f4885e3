/**
 * A real Redis Cluster for tests: three masters started from `redis-server` in cluster mode on free ports of 127.0.0.1 (each with its cluster bus
 * port, +10000, free too), joined with `redis-cli --cluster create`, in a temporary directory removed at stop.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { waitFor } from './poll.js';

const run = promisify(execFile);
/** Masters of the test cluster. */
const MASTERS = 3;
/** Redis puts a node's cluster bus on its port plus this. */
const BUS_OFFSET = 10_000;

/** A running cluster. */
export interface RedisCluster {
  /** REDIS_CLUSTER_NODES: `127.0.0.1:<port>,...`. */
  nodes: string;
  /** Stops every node and removes their files. */
  stop(): Promise<void>;
}

async function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A free port in 12000–21999 whose cluster bus port (22000–31999) is free too, not among `taken`: both below the kernel's ephemeral range
 * (32768 and up), where an outgoing connection could take the port between this check and the node's bind.
 */
async function clusterPort(taken: number[]): Promise<number> {
  for (;;) {
    const port = 12_000 + Math.floor(Math.random() * 10_000);
    if (!taken.includes(port) && (await isFree(port)) && (await isFree(port + BUS_OFFSET))) return port;
  }
}

/** Tries to start a cluster this many times (a port taken between the check and the bind fails one try). */
const TRIES = 3;

/**
 * Starts the cluster and waits until it reports `cluster_state:ok`, trying again on new ports when a try fails.
 * @throws the last try's error when no try forms a cluster.
 */
export async function startRedisCluster(): Promise<RedisCluster> {
  for (let tried = 1; ; tried++) {
    try {
      return await tryCluster();
    } catch (err) {
      if (tried === TRIES) throw err;
    }
  }
}

/**
 * One try: three nodes on new ports, joined, waited for until `cluster_state:ok`.
 * @throws Error when a node does not start or the cluster does not form within 30 s (its nodes are stopped).
 */
async function tryCluster(): Promise<RedisCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'hc-test-cluster-'));
  const ports: number[] = [];
  for (let i = 0; i < MASTERS; i++) ports.push(await clusterPort(ports));
  const children: ChildProcess[] = ports.map((port) =>
    spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`,
      '--dir', dir, '--save', '', '--appendonly', 'no', '--hz', '100'], { stdio: 'ignore' }),
  );
  const stop = async (): Promise<void> => {
    await Promise.all(children.filter((c) => c.exitCode === null && c.signalCode === null).map(async (c) => {
      const exited = once(c, 'exit');
      c.kill('SIGKILL');
      await exited;
    }));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitFor('the cluster nodes', async () => (await Promise.all(ports.map(isFree))).every((free) => !free), 20_000);
    await run('redis-cli', ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes']);
    await waitFor('cluster_state:ok', async () => {
      const infos = await Promise.all(ports.map((p) => run('redis-cli', ['-p', String(p), 'cluster', 'info'])));
      return infos.every(({ stdout }) => stdout.includes('cluster_state:ok'));
    }, 30_000);
  } catch (err) {
    await stop();
    throw err;
  }
  return { nodes: ports.map((p) => `127.0.0.1:${p}`).join(','), stop };
}

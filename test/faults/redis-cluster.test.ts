import { expect } from 'chai';
import { Cluster } from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import { Check } from '../../shared/models/check.js';
import { buildChannel, buildCheck, buildProject } from '../helpers/factories.js';
import { freePort } from '../helpers/services.js';
import { startNode, waitForOutput, type Child } from '../helpers/processes.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { startRedisCluster, type RedisCluster } from '../helpers/redis-cluster.js';
import { allAlerted, expectOnceEach } from '../helpers/mass-down.js';
import { waitFor } from '../helpers/poll.js';

/** How many keys under `prefix` the cluster's masters hold (the service's keys went to the cluster, not to REDIS_URL). */
async function clusterKeys(nodes: string, prefix: string): Promise<number> {
  const client = new Cluster(nodes.split(',').map((n) => ({ host: '127.0.0.1', port: Number(n.split(':')[1]) })));
  try {
    await new Promise((resolve) => client.once('ready', resolve));
    const counts = await Promise.all(client.nodes('master').map(async (node) => (await node.keys(`${prefix}*`)).length));
    return counts.reduce((a, b) => a + b, 0);
  } finally {
    client.disconnect();
  }
}

/** Checks pinged, then going down together. */
const MASS = 50;

/**
 * The web and worker processes on a real three-master Redis Cluster (REDIS_CLUSTER_NODES, QUEUE_PREFIX with a hash tag), shipped intervals: pings
 * are acknowledged, a mass down with a worker killed (kill -9) and restarted alerts each check, every flip once.
 */
describe('fault: a Redis Cluster of three masters', function () {
  this.timeout(300_000);
  let cluster: RedisCluster;
  let receiver: Receiver;
  let children: Child[] = [];
  before(async () => {
    cluster = await startRedisCluster();
  });
  after(async () => {
    await cluster?.stop();
  });
  beforeEach(async () => {
    receiver = await startReceiver();
  });
  afterEach(async () => {
    await Promise.all(children.map((c) => c.stop('SIGKILL').catch(() => undefined)));
    children = [];
    await receiver.close();
  });

  const clusterEnv = () => ({ REDIS_CLUSTER_NODES: cluster.nodes, QUEUE_PREFIX: `{hc_test_${process.pid}}`, LOG_LEVEL: 'info' });
  const start = (script: string, env: Record<string, string> = {}): Child => {
    const child = startNode(script, { ...clusterEnv(), ...env });
    children.push(child);
    return child;
  };

  it('acknowledges pings and completes a mass down with a worker killed, every flip once and every alert present', async () => {
    const port = await freePort();
    const web = start('server/main.js', { PORT: String(port) });
    const worker = start('workers/main.js');
    await Promise.all([waitForOutput(web, '"msg":"listening"', 120_000), waitForOutput(worker, 'workers started', 120_000)]);
    const project = await buildProject();
    const channel = await buildChannel(project, { kind: 'webhook', value: `${receiver.url}/hook` });
    const checks = await Promise.all(Array.from({ length: MASS }, () => buildCheck(project, { timeout: 2, grace: 1, channels: [channel._id] })));
    const statuses = await Promise.all(checks.map(async (c) => (await fetch(`http://127.0.0.1:${port}/ping/${c._id}`)).status));
    expect(statuses).to.deep.equal(checks.map(() => 200));
    const ids = checks.map((c) => c._id);
    await waitFor('every ping stored', async () => (await Check.countDocuments({ _id: { $in: ids }, nPings: 1 })) === MASS, 60_000);
    await waitFor('the mass down under way', async () => (await Check.countDocuments({ _id: { $in: ids }, status: 'down' })) > 0, 60_000);
    worker.process.kill('SIGKILL');
    const restarted = start('workers/main.js');
    await allAlerted(ids, 180_000).catch((err: unknown) => {
      throw new Error(`${String(err)}; restarted worker's output:\n${restarted.output()}`);
    });
    await sleep(3_000);
    await expectOnceEach(receiver, ids, false);
    expect(await clusterKeys(cluster.nodes, clusterEnv().QUEUE_PREFIX)).to.be.greaterThan(0);
  });

  it('stops a process with one line and a non-zero exit when no node of REDIS_CLUSTER_NODES answers', async () => {
    const nowhere = `127.0.0.1:${await freePort()}`;
    const worker = start('workers/main.js', { REDIS_CLUSTER_NODES: nowhere, CONNECT_TIMEOUT_MS: '1000' });
    const code = await new Promise<number | null>((resolve) => worker.process.once('exit', resolve));
    expect(code, worker.output()).to.equal(1);
    expect(worker.output().trim().split('\n'), worker.output()).to.have.length(1);
    expect(worker.output()).to.include(`cannot reach Redis at cluster ${nowhere}`);
  });

  it('stops a process with one line and a non-zero exit when QUEUE_PREFIX has unbalanced braces', async () => {
    const worker = start('workers/main.js', { QUEUE_PREFIX: '{hc' });
    const code = await new Promise<number | null>((resolve) => worker.process.once('exit', resolve));
    expect(code).to.equal(1);
    expect(worker.output().trim()).to.match(/^bad configuration: QUEUE_PREFIX must be .*balanced curly braces$/);
  });
});

/**
 * Recovery times (docs/operations.md, "Failure and recovery"): 300 checks due in one instant, each with a webhook
 * channel to a local receiver, and a fault at that deadline, with worker processes on the SHIPPED intervals
 * (sweep, recovery pass, job lock, alert claims: none is set here). The faults: one of two workers killed (kill -9)
 * 150 ms after the deadline; the only worker killed then and restarted at once; FLUSHALL of the phase's Redis
 * 300 ms before the deadline. Each prints the alert delay from the deadline (p50/p99/max), the alerts received,
 * the repeats (by Idempotency-Key) and the down flips recorded (a check flipped twice is a bug).
 *
 * The phase runs on a redis-server of its own (a free port, its data in a temporary directory, the settings of
 * docs/configuration.md, "Redis settings"), so its FLUSHALL touches nothing shared, and in a MongoDB database of its own (dropped at
 * the end), so that no other worker of the bench (whose recovery pass reads every check past its deadline) takes its checks.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import mongoose, { type Connection } from 'mongoose';
import { Channel } from '../../shared/models/channel.js';
import { Check } from '../../shared/models/check.js';
import { Flip, type FlipDoc } from '../../shared/models/flip.js';
import { validateChannelValue } from '../../shared/notify/kinds.js';
import { scheduleDeadlines } from '../../shared/deadlines/schedule.js';
import { closeQueues, openQueues } from '../../shared/queues/index.js';
import { freePort, startRedisServer } from '../local-services.js';
import { databaseUri, waitUntil } from './common.js';
import { insertProject } from './own-database.js';
import { startWatched, startWorker, type WatchedChild } from './processes.js';
import { startReceiver } from './receiver.js';
import { summarize, type Summary } from './stats.js';

/** The faults measured, in the order they run. */
export const FAULTS = ['one of two workers killed 150 ms after the deadline', 'the only worker killed 150 ms after the deadline and restarted at once',
  'FLUSHALL of Redis 300 ms before the deadline'] as const;
export type Fault = (typeof FAULTS)[number];

/** Milliseconds from the checks' insertion to their deadline: room for the insert and for the flush 300 ms before. */
const LEAD_MS = 8_000;
/** How long every alert may take, milliseconds: beyond the sweep (120 s) that repairs what nothing else sees. */
const ALERTS_WITHIN_MS = 300_000;
/** Milliseconds waited after the last check's first alert for repeats: two recovery intervals and a claim's lease, with margin. */
const REPEATS_WITHIN_MS = 8_000;

/** What one fault cost. */
export interface RecoveryResult {
  fault: Fault;
  checks: number;
  /** Milliseconds from the deadline to each check's first down alert; undefined when none arrived. */
  delays?: Summary;
  /** Checks whose down alert arrived. */
  alerted: number;
  /** Down alerts received beyond one per check, and how many of them reused their alert's Idempotency-Key. */
  repeats: number;
  repeatsSameKey: number;
  /** Down flips recorded, and checks with more than one. */
  flips: number;
  flippedTwice: number;
}

/** One down alert as the receiver saw it. */
export interface Arrival {
  uuid: string;
  key: string;
  atMs: number;
}

/** Where the phase runs: its own MongoDB database (URI, connection, project) and its own Redis. */
interface Stage {
  mongoUri: string;
  db: Connection;
  projectId: string;
  prefix: string;
  redisUrl: string;
  redis: Redis;
}

/** Sleeps until epoch millisecond `atMs` (at once when it has passed). */
const sleepUntil = (atMs: number): Promise<void> => sleep(Math.max(0, atMs - Date.now()));

/**
 * Runs one fault over `count` checks due together and measures it.
 *
 * @throws Error when a worker does not start, or the deadline is too near once the checks are in (the database too slow).
 */
async function measureFault(stage: Stage, fault: Fault, count: number): Promise<RecoveryResult> {
  const arrivals: Arrival[] = [];
  const receiver = await startReceiver(({ uuid, status, key }, atMs) => {
    if (status === 'down') arrivals.push({ uuid, key, atMs });
  });
  const workers: WatchedChild[] = [];
  const queues = openQueues(stage.redis, stage.prefix);
  try {
    workers.push(await startWorker(workerEnv(stage)));
    if (fault === FAULTS[0]) workers.push(await startWorker(workerEnv(stage)));
    const channel = { _id: randomUUID(), projectId: stage.projectId, name: 'bench-recovery', kind: 'webhook', value: validateChannelValue('webhook', receiver.url), created: new Date() };
    await stage.db.model(Channel.modelName, Channel.schema).create(channel);
    const at = new Date(Date.now() + LEAD_MS);
    const docs = Array.from({ length: count }, (_, i) => ({
      _id: randomUUID(), projectId: stage.projectId, badgeKey: randomUUID(), created: new Date(), name: `recovery-${i}`, status: 'up' as const,
      lastPing: new Date(at.getTime() - 2_000), timeout: 1, grace: 1, deadline: at, nPings: 1, channels: [channel._id],
    }));
    await stage.db.model(Check.modelName, Check.schema).insertMany(docs);
    const ids = docs.map((d) => d._id);
    await scheduleDeadlines(queues.deadlines, ids.map((checkId) => ({ checkId, at })), new Date());
    if (Date.now() > at.getTime() - 1_000) throw new Error(`the ${count} checks took more than ${LEAD_MS - 1_000} ms to insert and schedule`);
    if (fault === FAULTS[2]) {
      await sleepUntil(at.getTime() - 300);
      await stage.redis.flushall();
    } else {
      await sleepUntil(at.getTime() + 150);
      workers[0].process.kill('SIGKILL');
      if (fault === FAULTS[1]) workers.push(startWatched('dist/workers/main.js', workerEnv(stage)));
    }
    const alerted = (): number => new Set(arrivals.map((a) => a.uuid)).size;
    await waitUntil(() => alerted() >= count, at.getTime() + ALERTS_WITHIN_MS - Date.now(), 100);
    await sleep(REPEATS_WITHIN_MS);
    return { ...tally(arrivals, at, fault, count), ...(await flipsOf(stage.db, ids)) };
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
    await closeQueues(queues);
    await receiver.close();
  }
}

/** The environment of a worker of the stage (the shipped intervals: none is set). */
function workerEnv(stage: Stage): Record<string, string> {
  return { MONGODB_URI: stage.mongoUri, REDIS_URL: stage.redisUrl, QUEUE_PREFIX: stage.prefix, LOG_LEVEL: 'info', INTEGRATIONS_ALLOW_PRIVATE_IPS: 'true' };
}

/**
 * Delays and repeats from a receiver's down alerts: the first arrival per check gives its delay (milliseconds after `at`),
 * later ones are repeats, counted apart when they carry the first one's Idempotency-Key.
 */
export function tally(arrivals: readonly Arrival[], at: Date, fault: Fault, count: number): Omit<RecoveryResult, 'flips' | 'flippedTwice'> {
  const first = new Map<string, Arrival>();
  let repeatsSameKey = 0;
  for (const a of arrivals) {
    const seen = first.get(a.uuid);
    if (!seen) first.set(a.uuid, a);
    else if (seen.key === a.key) repeatsSameKey++;
  }
  const delays = [...first.values()].map((a) => a.atMs - at.getTime());
  return {
    fault, checks: count, delays: delays.length > 0 ? summarize(delays) : undefined,
    alerted: first.size, repeats: arrivals.length - first.size, repeatsSameKey,
  };
}

/** The down flips recorded for the checks, and how many checks have more than one. */
async function flipsOf(db: Connection, ids: readonly string[]): Promise<{ flips: number; flippedTwice: number }> {
  const flips = await db.model<FlipDoc>(Flip.modelName, Flip.schema).find({ checkId: { $in: ids }, newStatus: 'down' }, { checkId: 1 }).lean();
  const per = new Map<string, number>();
  for (const f of flips) per.set(f.checkId, (per.get(f.checkId) ?? 0) + 1);
  return { flips: flips.length, flippedTwice: [...per.values()].filter((n) => n > 1).length };
}

/**
 * Measures every fault of {@link FAULTS} in turn, on a redis-server started for the phase and in a database of its own
 * (the redis-server stopped and its data removed, the database dropped, at the end).
 *
 * @param mongoUri - A MongoDB URI of the bench's server; its database name is replaced with `prefix`.
 * @param prefix - The queue prefix of the phase's processes, and the name of its database.
 * @param report - Called with each fault's figures as soon as they are known.
 * @throws Error when redis-server cannot start or a worker does not.
 */
export async function measureRecovery(mongoUri: string, prefix: string, count: number, report: (result: RecoveryResult) => void): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'hc-bench-recovery-'));
  const port = await freePort();
  const server = await startRedisServer(port, join(dir, 'redis'));
  const redisUrl = `redis://127.0.0.1:${port}`;
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const uri = databaseUri(mongoUri, prefix);
  const db = await mongoose.createConnection(uri).asPromise();
  try {
    const { projectId } = await insertProject(db, 'bench recovery', count * FAULTS.length);
    for (const fault of FAULTS) report(await measureFault({ mongoUri: uri, db, projectId, prefix, redisUrl, redis }, fault, count));
  } finally {
    await db.dropDatabase();
    await db.close();
    redis.disconnect();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

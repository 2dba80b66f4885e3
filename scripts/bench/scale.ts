/**
 * Scale: many active checks at once. Inserts `count` up checks straight into
 * MongoDB (pinged in the last day, deadlines spread over the next day),
 * schedules each one's deadline the way pings do (its delayed job), and measures what a
 * large deployment pays: Redis bytes per check (INFO used_memory before and
 * after), and the duration of one reconciliation sweep pass over them.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { Check } from '../../shared/models/check.js';
import { scheduleDeadlines } from '../../shared/deadlines/schedule.js';
import type { Queues } from '../../shared/queues/index.js';
import { runSweep } from '../../shared/deadlines/sweep.js';
import { systemClock } from '../../shared/clock.js';
import { PER_ROUND_TRIP } from './common.js';

const DAY_MS = 86_400_000;
/** The sweep interval the pass is measured with (the default, milliseconds). */
const SWEEP_INTERVAL_MS = 120_000;

/** What {@link measureScale} found. */
export interface ScaleResult {
  checks: number;
  /** Milliseconds to insert the checks and schedule their jobs. */
  setupMs: number;
  /** Redis bytes added per check (its delayed deadline job). */
  redisBytesPerCheck: number;
  /** Milliseconds of one sweep pass, and how many deadlines it re-added. */
  sweepMs: number;
  sweepDeadlines: number;
  /** Ping paths of the first 1,000 checks, for a ping load at this scale. */
  paths: string[];
}

async function usedMemory(redis: Redis): Promise<number> {
  const info = await redis.info('memory');
  return Number(/used_memory:(\d+)/.exec(info)?.[1] ?? 0);
}

/**
 * Creates `count` checks in `projectId` and measures Redis per check and one sweep pass.
 *
 * @param redis - A connection to the Redis the queues use (for INFO).
 */
export async function measureScale(queues: Queues, redis: Redis, projectId: string, count: number): Promise<ScaleResult> {
  const started = Date.now();
  const before = await usedMemory(redis);
  const paths: string[] = [];
  for (let done = 0; done < count; done += PER_ROUND_TRIP) {
    const now = Date.now();
    const docs = Array.from({ length: Math.min(PER_ROUND_TRIP, count - done) }, () => {
      const lastPing = new Date(now - Math.random() * DAY_MS);
      const id = randomUUID();
      if (paths.length < 1000) paths.push(`/ping/${id}`);
      return {
        _id: id, projectId, badgeKey: randomUUID(), created: new Date(now), status: 'up' as const,
        timeout: 86_400, grace: 3600, lastPing, deadline: new Date(lastPing.getTime() + DAY_MS + 3_600_000), nPings: 1,
      };
    });
    await Check.insertMany(docs, { ordered: false, lean: true });
    await scheduleDeadlines(queues.deadlines, docs.map((d) => ({ checkId: d._id, at: d.deadline })), new Date());
  }
  const setupMs = Date.now() - started;
  const redisBytesPerCheck = Math.round((await usedMemory(redis)) - before) / count;
  const sweepStarted = Date.now();
  const sweep = await runSweep({ queues, clock: systemClock, settings: { deadlineConcurrency: 1, sweepIntervalMs: SWEEP_INTERVAL_MS } });
  return { checks: count, setupMs, redisBytesPerCheck, sweepMs: Date.now() - sweepStarted, sweepDeadlines: sweep.deadlines, paths };
}

/**
 * The bench's `writes` phase: what the database costs a ping's write (docs/architecture.md, "Indexes").
 *
 * - Index cost: 10,000 checks in a collection of the phase's own with every index the check schema declares, then with each one left
 *   out in turn (and with none but `_id`), each time fresh; 2,000 sequential guarded updates of what a ping writes (last ping, deadline,
 *   count, recent pings, `rev`) on random checks. An index's cost is the median update with it minus the median without it.
 * - Sustained: `checks` checks of the bench's project pinged once a second each through the real ping path (shared/pings/record.ts,
 *   batches of 100 every 100 ms) for `seconds`; the p99 of a batch's write (store write and ping insert) in the first minute and in the
 *   last, and whether each second's pings were written within it (a journal fed at that rate drains).
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import mongoose from 'mongoose';
import { Types } from 'mongoose';
import type { Redis } from 'ioredis';
import { Check } from '../../shared/models/check.js';
import { openQueues, closeQueues } from '../../shared/queues/index.js';
import { recordPings, type PingItem } from '../../shared/pings/record.js';
import { systemClock } from '../../shared/clock.js';
import { slicesOf, type Out } from './common.js';
import { median, summarize } from './stats.js';

const INDEX_CHECKS = 10_000;
const INDEX_UPDATES = 2_000;

/** Median milliseconds of a guarded ping-shaped update, in a fresh collection with `indexes`. */
async function updateCost(indexes: readonly [Record<string, 1 | -1>, Record<string, unknown>][]): Promise<number> {
  const collection = mongoose.connection.collection(`bench_indexes_${randomUUID().slice(0, 8)}`);
  try {
    for (const [keys, options] of indexes) await collection.createIndex(keys, { sparse: options.sparse === true });
    const now = Date.now();
    const docs = Array.from({ length: INDEX_CHECKS }, (_, i) => new Check({
      _id: randomUUID(), projectId: `p${i % 10}`, badgeKey: randomUUID(), created: new Date(now), name: `check-${i}`, tags: 'a b',
      status: 'up', lastPing: new Date(now - i * 1000), deadline: new Date(now + 3600_000 + i * 1000),
    }).toObject());
    for (const slice of slicesOf(docs)) await collection.insertMany(slice as never[]);
    const rev = new Map<string, number>();
    const times: number[] = [];
    for (let u = 0; u < INDEX_UPDATES; u++) {
      const id = docs[Math.floor(Math.random() * docs.length)]._id;
      const r = rev.get(id) ?? 0;
      const at = new Date();
      const started = performance.now();
      await collection.updateOne({ _id: id as never, rev: r }, {
        $set: { lastPing: at, deadline: new Date(at.getTime() + 3600_000), nPings: u, rev: r + 1, recentPings: [{ _id: new Types.ObjectId(), n: u, kind: 'success', created: at }] },
      });
      times.push(performance.now() - started);
      rev.set(id, r + 1);
    }
    return median(times.map((t) => Math.round(t * 1000))) / 1000;
  } finally {
    await collection.drop().catch(() => undefined);
  }
}

/** The index-cost table. */
export async function reportIndexCost(out: Out): Promise<void> {
  const all = Check.schema.indexes() as [Record<string, 1 | -1>, Record<string, unknown>][];
  const name = (keys: Record<string, unknown>) => Object.entries(keys).map(([k, v]) => `${k}:${String(v)}`).join(', ');
  out(`writes, index cost: ${INDEX_CHECKS} checks, ${INDEX_UPDATES} sequential guarded ping-shaped updates on random checks, a fresh collection each`);
  const full = await updateCost(all);
  const bare = await updateCost([]);
  out(`| indexes | median update, ms |\n|---|---|\n| all ${all.length} of the check schema | ${full.toFixed(2)} |\n| none but _id | ${bare.toFixed(2)} |`);
  out('\n| left out | median update, ms | its cost, ms |\n|---|---|---|');
  for (let i = 0; i < all.length; i++) {
    const without = await updateCost(all.filter((_, j) => j !== i));
    out(`| {${name(all[i][0])}}${all[i][1].sparse ? ' sparse' : ''} | ${without.toFixed(2)} | ${(full - without).toFixed(2)} |`);
  }
  out();
}

/** Pings `ids` once a second each for `seconds` through the real ping path and reports the write's p99 first and last minute. */
export async function reportSustained(redis: Redis, prefix: string, ids: readonly string[], seconds: number, out: Out): Promise<void> {
  const queues = openQueues(redis, `${prefix}_writes`);
  const deps = { clock: systemClock, queues };
  const slices = [...slicesOfSize(ids, 100)];
  const samples: { at: number; ms: number }[] = [];
  let lateSeconds = 0;
  const start = performance.now();
  try {
    for (let s = 0; s < seconds; s++) {
      const secondStart = start + s * 1000;
      for (let k = 0; k < slices.length; k++) {
        const due = secondStart + (k * 1000) / slices.length;
        if (performance.now() < due) await sleep(due - performance.now());
        const items: PingItem[] = slices[k].map((checkId) => ({ checkId, resolve: () => 'success', meta: metaOf() }));
        const began = performance.now();
        await recordPings(deps, items);
        samples.push({ at: began - start, ms: performance.now() - began });
      }
      if (performance.now() > secondStart + 1000) lateSeconds++;
    }
  } finally {
    await closeQueues(queues);
  }
  const minute = (from: number, to: number) => summarize(samples.filter((x) => x.at >= from && x.at < to).map((x) => Math.round(x.ms)));
  const first = minute(0, 60_000);
  const last = minute((seconds - 60) * 1000, seconds * 1000);
  out(`writes, sustained: ${ids.length} checks pinged once a second each for ${seconds} s through the ping path (batches of 100 every ${1000 / slices.length} ms)`);
  out('| minute | batches | p50 ms | p99 ms | max ms |\n|---|---|---|---|---|');
  out(`| first | ${first.count} | ${first.p50} | ${first.p99} | ${first.max} |`);
  out(`| last | ${last.count} | ${last.p50} | ${last.p99} | ${last.max} |`);
  out(`p99 last / first: ${(last.p99 / Math.max(1, first.p99)).toFixed(2)}; seconds whose pings were not all written within the second: ${lateSeconds} of ${seconds}\n`);
}

function metaOf(): PingItem['meta'] {
  return { _id: new Types.ObjectId(), scheme: 'http', remoteAddr: '127.0.0.1', method: 'GET', ua: 'bench', body: null, exitStatus: null, rid: null };
}

function* slicesOfSize<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

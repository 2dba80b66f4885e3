/**
 * Alert latency: 1,000 cron checks (`* * * * *`, grace 1 s) pinged within the
 * same minute share one deadline, so they all go down in the same second. Each
 * has a webhook channel pointing at a local receiver; latency is the request's
 * arrival minus the check's deadline (its flip's `created`).
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Flip } from '../../shared/models/flip.js';
import { createChannel } from '../../shared/services/channels.js';
import { idsOf, pingEach, waitUntil } from './common.js';
import { createChecks } from './lateness.js';
import { startReceiver } from './receiver.js';
import { summarize, type Summary } from './stats.js';

/** Seconds before a minute boundary below which the bench waits for the next minute. */
const MIN_LEAD_S = 15;

/**
 * Measures alert latency for `count` checks: with `together`, cron checks
 * that all go down in the same second; otherwise simple checks (timeout 2 s,
 * grace 1 s) that go down 3 s after their ping.
 *
 * @param projectId - Project the API key belongs to (the webhook channel is created in it).
 * @returns Deadline → webhook arrival (`alerts`), and deadline → flip stored (`flips`: its `processed`, when the down write is done and the worker begins its alerts), milliseconds.
 * @throws Error when not every alert arrived within 60 s of the deadline.
 */
export async function measureAlertLatency(origin: string, projectId: string, count: number, together = true): Promise<{ alerts: Summary; flips: Summary }> {
  /** Each check's first down alert's arrival, epoch milliseconds. */
  const arrivals = new Map<string, number>();
  const receiver = await startReceiver((alert, atMs) => {
    if (alert.status === 'down' && !arrivals.has(alert.uuid)) arrivals.set(alert.uuid, atMs);
  });
  try {
    const channel = await createChannel({ projectId, kind: 'webhook', name: `bench-receiver-${randomUUID()}`, value: receiver.url });
    const shape = together ? { kind: 'cron' as const, schedule: '* * * * *', grace: 1 } : { timeout: 2, grace: 1 };
    const paths = await createChecks(projectId, count, { ...shape, channels: [channel._id] });
    const msToMinute = 60_000 - (Date.now() % 60_000);
    if (together && msToMinute < MIN_LEAD_S * 1000) await sleep(msToMinute + 100);
    await pingEach(origin, paths);
    await waitUntil(() => arrivals.size >= count, 60_000 + 60_000, together ? 250 : 20);
    if (arrivals.size < count) throw new Error(`only ${arrivals.size} of ${count} alerts arrived`);
    const flips = await Flip.find({ checkId: { $in: idsOf(paths) }, newStatus: 'down' }, { checkId: 1, created: 1, processed: 1 }).lean();
    return {
      alerts: summarize(flips.map((f) => arrivals.get(f.checkId)! - f.created.getTime())),
      flips: summarize(flips.map((f) => f.processed!.getTime() - f.created.getTime())),
    };
  } finally {
    await receiver.close();
  }
}

/**
 * Alert latency: 1,000 cron checks (`* * * * *`, grace 1 s) pinged within the
 * same minute share one deadline, so they all go down in the same second. Each
 * has a webhook channel pointing at a local receiver; latency is the request's
 * arrival minus the check's deadline (its flip's `created`).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { Flip } from '../../shared/models/flip.js';
import { createChannel } from '../../shared/services/channels.js';
import { createChecks, inBatches } from './lateness.js';
import { summarize, type Summary } from './stats.js';

/** Seconds before a minute boundary below which the bench waits for the next minute. */
const MIN_LEAD_S = 15;

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A local webhook receiver recording when each check's down alert arrived (epoch milliseconds). */
async function startReceiver(): Promise<{ url: string; arrivals: Map<string, number>; close: () => void }> {
  const arrivals = new Map<string, number>();
  const server = createServer((req, res) => {
    const at = Date.now();
    void bodyOf(req).then((body) => {
      const alert = JSON.parse(body) as { uuid: string; status: string };
      if (alert.status === 'down' && !arrivals.has(alert.uuid)) arrivals.set(alert.uuid, at);
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return { url: `http://127.0.0.1:${port}/hook`, arrivals, close: () => server.close() };
}

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
  const receiver = await startReceiver();
  try {
    const channel = await createChannel({ projectId, kind: 'webhook', name: `bench-receiver-${randomUUID()}`, value: receiver.url });
    const shape = together ? { kind: 'cron' as const, schedule: '* * * * *', grace: 1 } : { timeout: 2, grace: 1 };
    const paths = await createChecks(projectId, count, { ...shape, channels: [channel._id] });
    const msToMinute = 60_000 - (Date.now() % 60_000);
    if (together && msToMinute < MIN_LEAD_S * 1000) await sleep(msToMinute + 100);
    await inBatches(paths, 50, async (path) => {
      const res = await fetch(origin + path);
      if (!res.ok) throw new Error(`ping: HTTP ${res.status}`);
    });
    const until = Date.now() + 60_000 + 60_000;
    while (receiver.arrivals.size < count && Date.now() < until) await sleep(together ? 250 : 20);
    if (receiver.arrivals.size < count) throw new Error(`only ${receiver.arrivals.size} of ${count} alerts arrived`);
    const ids = paths.map((p) => p.split('/').pop()!);
    const flips = await Flip.find({ checkId: { $in: ids }, newStatus: 'down' }, { checkId: 1, created: 1, processed: 1 }).lean();
    return {
      alerts: summarize(flips.map((f) => receiver.arrivals.get(f.checkId)! - f.created.getTime())),
      flips: summarize(flips.map((f) => f.processed!.getTime() - f.created.getTime())),
    };
  } finally {
    receiver.close();
  }
}

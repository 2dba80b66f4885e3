/**
 * The end of a maintenance window (docs/alerting-rules.md, "Maintenance windows"): `count` checks, each with a webhook channel to a local receiver, go down
 * together inside one one-off window (created through the API) that ends at a known instant; each owes one `resumed` alert then. Measured from the
 * window's end: the alert owed (its notification's `flipCreated`, when the deadline worker wrote it: the analogue of a flip recorded) and its
 * arrival at the receiver, with every webhook request counted (exactly `count`, none sent inside the window, no duplicate).
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Check } from '../../shared/models/check.js';
import { Notification } from '../../shared/models/notification.js';
import { createChannel } from '../../shared/services/channels.js';
import { scheduleDeadlines } from '../../shared/deadlines/schedule.js';
import type { Queues } from '../../shared/queues/index.js';
import { idsOf, slicesOf, waitUntil } from './common.js';
import { createChecks } from './lateness.js';
import { startReceiver } from './receiver.js';
import { summarize, type Summary } from './stats.js';

/** How long after the window's end the phase waits for the alerts, milliseconds; those later are counted as missing. */
const ALERTS_WITHIN_MS = 180_000;
/** How long the receiver keeps counting after the last expected alert, for a duplicate, milliseconds. */
const DUPLICATE_WATCH_MS = 5_000;

/** What {@link measureWindowEnd} found. */
export interface WindowResult {
  /** Window end → `resumed` alert owed (notification written), milliseconds. */
  owed: Summary;
  /** Window end → webhook arrival, milliseconds (each check's first arrival), of the alerts that arrived within {@link ALERTS_WITHIN_MS}. */
  alerts: Summary;
  /** Checks whose alert arrived within {@link ALERTS_WITHIN_MS} of the window's end. */
  arrived: number;
  /** The wait, seconds. */
  waitedS: number;
  /** Webhook requests received in all: `count` when none was repeated or sent inside the window. */
  requests: number;
  /** Checks that got more than one request. */
  duplicates: number;
  /** Requests received before the window ended (a held alert sent: must be 0). */
  insideWindow: number;
}

/** Creates the one-off window through the API: from now until `end`, covering the checks tagged `tag`. @throws Error on a non-201. */
async function createWindow(origin: string, apiKey: string, tag: string, end: Date): Promise<void> {
  const res = await fetch(`${origin}/api/v3/maintenance/`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench window', start: new Date().toISOString(), end: end.toISOString(), tags: tag }),
  });
  if (res.status !== 201) throw new Error(`create window: HTTP ${res.status} ${await res.text()}`);
}

/**
 * Measures the end of a window holding `count` down checks.
 *
 * @param leadS - Seconds from the checks' common deadline to the window's end: long enough for all of them to go down and be held first.
 * @throws Error when not every check was held before the window ended (raise `leadS`), or no alert arrived within {@link ALERTS_WITHIN_MS}.
 */
export async function measureWindowEnd(origin: string, apiKey: string, projectId: string, queues: Queues, count: number, leadS: number): Promise<WindowResult> {
  /** Every request's arrival (epoch milliseconds) per check UUID. */
  const arrivals = new Map<string, number[]>();
  const receiver = await startReceiver(({ uuid }, atMs) => void arrivals.set(uuid, [...(arrivals.get(uuid) ?? []), atMs]));
  try {
    const tag = `window-${randomUUID().slice(0, 8)}`;
    const channel = await createChannel({ projectId, kind: 'webhook', name: `bench-window-${tag}`, value: receiver.url });
    const paths = await createChecks(projectId, count, { status: 'up', timeout: 1, grace: 1, tags: tag, channels: [channel._id] });
    const ids = idsOf(paths);
    // All due in one instant a few seconds ahead, inside the window; the window ends `leadS` seconds after that.
    const deadline = new Date(Date.now() + 5_000);
    const end = new Date(deadline.getTime() + leadS * 1000);
    await createWindow(origin, apiKey, tag, end);
    await Check.updateMany({ projectId, tags: tag }, { $set: { lastPing: new Date(deadline.getTime() - 2_000), deadline } });
    for (const slice of slicesOf(ids)) await scheduleDeadlines(queues.deadlines, slice.map((checkId) => ({ checkId, at: deadline })), new Date());
    let held = 0;
    await waitUntil(async () => (held = await Check.countDocuments({ projectId, tags: tag, status: 'down', heldUntil: end })) >= count, end.getTime() - Date.now(), 500);
    if (held < count) {
      const down = await Check.countDocuments({ projectId, tags: tag, status: 'down' });
      throw new Error(`only ${held} of ${count} checks were held (${down} down) when the window ended: raise --window-lead`);
    }
    const insideWindow = [...arrivals.values()].flat().length;
    const giveUp = end.getTime() + ALERTS_WITHIN_MS;
    await waitUntil(() => arrivals.size >= count, giveUp - Date.now(), 250);
    if (arrivals.size === 0) throw new Error(`no alert arrived within ${ALERTS_WITHIN_MS / 1000} s of the window's end`);
    const arrived = arrivals.size;
    await sleep(DUPLICATE_WATCH_MS);
    const owed = await Notification.find({ channelId: channel._id, event: 'resumed' }, { flipCreated: 1 }).lean();
    const all = [...arrivals.values()];
    return {
      owed: summarize(owed.map((n) => n.flipCreated.getTime() - end.getTime())),
      alerts: summarize(all.map((times) => times[0]).filter((at) => at <= giveUp).map((at) => at - end.getTime())),
      arrived,
      waitedS: ALERTS_WITHIN_MS / 1000,
      requests: all.flat().length,
      duplicates: all.filter((times) => times.length > 1).length,
      insideWindow,
    };
  } finally {
    await receiver.close();
  }
}

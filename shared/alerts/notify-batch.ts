/**
 * Batching of the notify jobs that run at once (shared/alerts/notify.ts): jobs started within {@link BATCH_WINDOW_MS} of each other claim their
 * notifications with one update and one read, read their channels and checks with one query each, and record their deliveries with one bulk write of
 * the notifications and one of their channels: a thousand alerts at once cost a handful of database round trips, not thousands.
 */
import DataLoader from 'dataloader';
import type { Clock } from '../clock.js';
import { logger } from '../logger.js';
import { Channel, type ChannelDoc } from '../models/channel.js';
import { Check, type CheckDoc } from '../models/check.js';
import { claimNotifications, recordDeliveredMany, type Claim, type Delivered } from './notifications.js';
import type { NotifyPayload } from '../queues/payloads.js';

const log = logger.child({ module: 'notify-batch' });
/** The check fields an alert uses. */
const ALERT_CHECK_FIELDS = Object.freeze({ projectId: 1, name: 1, tags: 1, desc: 1, lastPing: 1, status: 1 } as const);

/** A job's claim, with its channel and check as read alongside (null when deleted). */
export interface Prepared {
  claim: Claim;
  channel: ChannelDoc | null;
  check: CheckDoc | null;
}

/** Batchers of the notify jobs running at once (a batch per {@link BATCH_WINDOW_MS}): `prepare` claims and reads, `delivered` records. */
export interface NotifyBatchers {
  prepare: DataLoader<NotifyPayload, Prepared>;
  delivered: DataLoader<Delivered, void>;
}

/** Longest a job waits for others to share its batch, milliseconds. */
const BATCH_WINDOW_MS = 2;
/** Most jobs in one batch. */
const MAX_BATCH = 500;

/** Reads the channels and checks (alert fields) of notifications, one query each; a deleted one is null. */
export async function readAlertTargets(keys: readonly { channelId: string; checkId: string }[]): Promise<(key: { channelId: string; checkId: string }) => Pick<Prepared, 'channel' | 'check'>> {
  const [channels, checks] = await Promise.all([
    Channel.find({ _id: { $in: [...new Set(keys.map((k) => k.channelId))] } }).lean<ChannelDoc[]>(),
    Check.find({ _id: { $in: [...new Set(keys.map((k) => k.checkId))] } }, ALERT_CHECK_FIELDS).lean<CheckDoc[]>(),
  ]);
  const channelById = new Map(channels.map((c) => [c._id, c]));
  const checkById = new Map(checks.map((c) => [c._id, c]));
  return (key) => ({ channel: channelById.get(key.channelId) ?? null, check: checkById.get(key.checkId) ?? null });
}

/** The batchers of a notify worker; `leaseMs` is each claim's lease, milliseconds (see `leaseMsOf`). */
export function notifyBatchers(clock: Clock, leaseMs: number): NotifyBatchers {
  const options = { cache: false, maxBatchSize: MAX_BATCH, batchScheduleFn: (run: () => void) => setTimeout(run, BATCH_WINDOW_MS) };
  const prepare = new DataLoader<NotifyPayload, Prepared>(async (payloads) => {
    const [claims, targetOf] = await Promise.all([claimNotifications(payloads, leaseMs, clock()), readAlertTargets(payloads)]);
    return payloads.map((p, i) => ({ claim: claims[i], ...targetOf(p) }));
  }, options);
  const delivered = new DataLoader<Delivered, void>(async (items) => {
    const recorded = await recordDeliveredMany(items);
    if (recorded < items.length) log.warn({ taken: items.length - recorded }, 'claims were taken over during slow deliveries; those alerts may have gone twice');
    return items.map(() => undefined);
  }, options);
  return { prepare, delivered };
}

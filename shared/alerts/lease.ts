/**
 * Renewal of the claims this process holds on notifications (shared/alerts/notifications.ts): a claim's lease is short, so a worker killed mid-send
 * frees its alerts within seconds, and renewed every third of it while the attempt (and the record after it) runs, so a slow provider keeps its
 * claim. A renewal that fails (MongoDB away) only lets the lease run out: another worker may then send again, under the same Idempotency-Key.
 */
import type { NotifyConfig } from '../config.js';
import { Notification } from '../models/notification.js';
import { logger } from '../logger.js';

const log = logger.child({ module: 'alert-lease' });

/** Longest lease of a claim, milliseconds: a killed worker's alerts wait at most this (plus a notify job's wake-up) before another worker sends them. */
export const MAX_CLAIM_LEASE_MS = 4000;

/** How long an attempt's claim lasts unless renewed, milliseconds: twice the attempt timeout, at most {@link MAX_CLAIM_LEASE_MS}. */
export function leaseMsOf(config: Pick<NotifyConfig, 'attemptTimeoutMs'>): number {
  return Math.min(2 * config.attemptTimeoutMs, MAX_CLAIM_LEASE_MS);
}

/** Claims held now: token → notification ids. */
const held = new Map<string, Set<string>>();
let timer: NodeJS.Timeout | undefined;
/** The lease each renewal grants, milliseconds (the latest hold's). */
let renewMs = MAX_CLAIM_LEASE_MS;

/** One write for every claim held: an id is only ever held under this process's tokens, so matching any of them is matching its own. */
async function renew(): Promise<void> {
  const leaseUntil = new Date(Date.now() + renewMs);
  const ids = [...held.values()].flatMap((set) => [...set]);
  await Notification.updateMany({ _id: { $in: ids }, claimToken: { $in: [...held.keys()] }, state: 'sending' }, { $set: { leaseUntil } }).exec();
}

/**
 * Keeps the claim `token` of the notifications `ids` alive (lease `leaseMs` milliseconds, renewed every third of it) until the returned function is
 * called; call it once the outcome is recorded.
 */
export function holdClaims(token: string, ids: readonly string[], leaseMs: number): () => void {
  if (ids.length === 0) return () => undefined;
  const mine = held.get(token) ?? new Set<string>();
  held.set(token, mine);
  for (const id of ids) mine.add(id);
  renewMs = leaseMs;
  timer ??= setInterval(() => {
    renew().catch((err: unknown) => log.warn({ err }, 'cannot renew alert claims; they lapse if this persists'));
  }, Math.max(100, Math.floor(leaseMs / 3)));
  timer.unref();
  return () => {
    for (const id of ids) mine.delete(id);
    if (mine.size === 0) held.delete(token);
    if (held.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

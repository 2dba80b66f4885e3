/**
 * Claims on report mails (shared/models/report.ts), the same exactly-once rule as alerts (shared/alerts/lease.ts): a worker inserts the record of
 * (user, kind, period) before it sends; the unique key lets one insert win, so a second worker or a second pass sends nothing. The claim's lease is
 * renewed every third of it while the mail is being sent; a worker killed mid-send stops renewing, and once the lease has run out another worker
 * retakes the record and sends it. The one repeat left: killed after the relay accepted the mail and before the record says `sent`.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import { insertNew } from '../db.js';
import { logger } from '../logger.js';
import { Report, type ReportDoc, type ReportKind } from '../models/report.js';
import type { Period } from '../domain/report-period.js';

const log = logger.child({ module: 'report-claims' });

/** Claims a mail gets before it is left `sending` for good (a relay that keeps refusing it); about one lease apart. */
export const MAX_REPORT_ATTEMPTS = 5;

/** A record held under `token`. */
export interface ReportClaim {
  report: ReportDoc;
  token: string;
}

/** The record's unique key. */
export function reportIdOf(userId: string, kind: ReportKind, periodStart: Date): string {
  return `${userId}-${kind}-${periodStart.getTime()}`;
}

/**
 * Claims the mail of (user, kind, period) for this attempt, for `leaseMs` milliseconds.
 * @returns The claim, or null when the record exists already (sent, skipped, or another worker holds it).
 * @throws the MongoDB error.
 */
export async function claimNew(userId: string, kind: ReportKind, every: string, period: Period, now: Date, leaseMs: number): Promise<ReportClaim | null> {
  const token = randomUUID();
  const report: ReportDoc = {
    _id: reportIdOf(userId, kind, period.start), userId, kind, every, periodStart: period.start, periodEnd: period.end,
    state: 'sending', claimToken: token, leaseUntil: new Date(now.getTime() + leaseMs), attempts: 1, created: now, finished: null,
  };
  const inserted = await insertNew(Report, [report]);
  return inserted.length === 1 ? { report, token } : null;
}

/**
 * Retakes the records whose claim's lease ran out (a worker killed mid-send, or a send that failed), one guarded write each, so two workers
 * retaking at once get each record once. At most 100 per call.
 * @throws the MongoDB error.
 */
export async function retakeLapsed(now: Date, leaseMs: number): Promise<ReportClaim[]> {
  const lapsed = await Report.find({ state: 'sending', leaseUntil: { $lte: now }, attempts: { $lt: MAX_REPORT_ATTEMPTS } }).limit(100).lean<ReportDoc[]>();
  const claims: ReportClaim[] = [];
  for (const old of lapsed) {
    const token = randomUUID();
    const report = await Report.findOneAndUpdate(
      { _id: old._id, state: 'sending', claimToken: old.claimToken },
      { $set: { claimToken: token, leaseUntil: new Date(now.getTime() + leaseMs) }, $inc: { attempts: 1 } },
      { returnDocument: 'after' },
    ).lean<ReportDoc>();
    if (report) claims.push({ report, token });
  }
  return claims;
}

/**
 * Keeps the claim alive (lease `leaseMs` milliseconds from `clock()`, renewed every third of it) until the returned function is called. A renewal
 * that fails only lets the lease run out: another worker may then send the mail again.
 */
export function holdClaim(claim: ReportClaim, leaseMs: number, clock: Clock): () => void {
  const timer = setInterval(() => {
    const leaseUntil = new Date(clock().getTime() + leaseMs);
    Report.updateOne({ _id: claim.report._id, claimToken: claim.token, state: 'sending' }, { $set: { leaseUntil } })
      .exec()
      .catch((err: unknown) => log.warn({ err, reportId: claim.report._id }, 'cannot renew a report claim; it lapses if this persists'));
  }, Math.max(100, Math.floor(leaseMs / 3)));
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Records the outcome if the attempt still holds the claim.
 * @returns Whether it did (false: its lease ran out and another worker retook the mail).
 * @throws the MongoDB error.
 */
export async function finishClaim(claim: ReportClaim, state: 'sent' | 'skipped', now: Date): Promise<boolean> {
  const result = await Report.updateOne({ _id: claim.report._id, claimToken: claim.token, state: 'sending' }, { $set: { state, finished: now } });
  return result.modifiedCount === 1;
}

/**
 * The report path (docs/reports.md): a BullMQ job scheduler runs one pass every REPORT_INTERVAL_MS on whichever worker takes the job. A pass
 *
 * 1. retakes the mails whose claim ran out (a worker killed mid-send, a relay that refused) and sends them (shared/reports/claims.ts);
 * 2. for each user whose report is due (`reportDue` passed: the day, week (Monday) or month ended in the user's zone), claims the report of the
 *    period that ended, sends it, and moves `reportDue` to the end of the current period;
 * 3. the same for reminders, claimed only while a check of the user's projects is down (nothing is sent otherwise).
 *
 * Crash points: killed before the claim, the next pass finds the user still due; after it, the claim lapses and step 1 of a later pass sends the
 * mail; after the relay accepted it and before the record says `sent`, it is sent twice (the one repeat, as alerts have).
 */
import { Queue, Worker } from 'bullmq';
import type { Clock } from '../clock.js';
import { config } from '../config.js';
import { logger } from '../logger.js';
import { sendRenderedMail } from '../mail.js';
import { User, type UserDoc } from '../models/user.js';
import type { ReportKind } from '../models/report.js';
import type { NotifyConfig } from '../config-notify.js';
import { knownZone, lastPeriod, periodAt } from '../domain/report-period.js';
import { bullOptions, workerOptions } from '../queues/index.js';
import { QueueName } from '../queues/names.js';
import type { WorkerDeps } from '../queues/deps.js';
import { claimNew, finishClaim, holdClaim, retakeLapsed, type ReportClaim } from './claims.js';
import { downNowOf, lockedCountOf, reportOf } from './content.js';
import { reminderMail, reportMail } from './mail.js';
import { unsubscribeToken } from './links.js';
import { nextDue } from './settings.js';

const log = logger.child({ module: 'reports' });

/** The id of the repeating report pass's job scheduler. */
export const REPORT_SCHEDULER_ID = 'reports';

/** What a pass needs: clock, the relay and links (`config.notify`), the claim's lease (milliseconds). */
export interface ReportDeps {
  clock: Clock;
  mail: Pick<NotifyConfig, 'smtpUrl' | 'fromEmail' | 'baseUrl' | 'siteName' | 'secretKey'>;
  leaseMs: number;
}

/** What one pass did. */
export interface ReportPassResult {
  sent: number;
  skipped: number;
}

type Setting = { period: 'reportPeriod'; due: 'reportDue' } | { period: 'reminderPeriod'; due: 'reminderDue' };
const SETTING: Record<ReportKind, Setting> = { report: { period: 'reportPeriod', due: 'reportDue' }, reminder: { period: 'reminderPeriod', due: 'reminderDue' } };

/**
 * Sends a claimed mail, built now from the database; skips it when its setting was turned off, the user is gone, or (a reminder) nothing is down.
 * @returns Whether it was sent.
 * @throws the relay's or MongoDB's error (the claim then lapses and a later pass retries).
 */
async function deliver(deps: ReportDeps, claim: ReportClaim): Promise<boolean> {
  const { userId, kind, every, periodStart, periodEnd } = claim.report;
  const user = await User.findById(userId).lean<UserDoc>();
  if (!user || user[SETTING[kind].period] === 'off') return finishClaim(claim, 'skipped', deps.clock()).then(() => false);
  const tz = knownZone(user.tz);
  const ctx = {
    to: user.email, tz, every, siteName: deps.mail.siteName, baseUrl: deps.mail.baseUrl,
    unsubscribeUrl: `${deps.mail.baseUrl}/account/reports/unsubscribe/${unsubscribeToken(kind, userId, deps.mail.secretKey, deps.clock())}`,
    locked: await lockedCountOf(user),
  };
  let mail;
  if (kind === 'report') {
    mail = reportMail(ctx, { start: periodStart, end: periodEnd }, await reportOf(user, { start: periodStart, end: periodEnd }));
  } else {
    const down = await downNowOf(user);
    if (down.length === 0) return finishClaim(claim, 'skipped', deps.clock()).then(() => false);
    mail = reminderMail(ctx, down);
  }
  const release = holdClaim(claim, deps.leaseMs, deps.clock);
  try {
    await sendRenderedMail(deps.mail, mail);
  } finally {
    release();
  }
  if (!(await finishClaim(claim, 'sent', deps.clock()))) log.warn({ reportId: claim.report._id }, 'report sent after its claim lapsed; it may arrive twice');
  return true;
}

/** Sends `claim` and counts it; an error is logged and left to the retry of a later pass. */
async function deliverCounted(deps: ReportDeps, claim: ReportClaim, result: ReportPassResult): Promise<void> {
  try {
    if (await deliver(deps, claim)) result.sent += 1;
    else result.skipped += 1;
  } catch (err) {
    log.warn({ err, reportId: claim.report._id, attempts: claim.report.attempts }, 'report not sent; a later pass retries');
  }
}

/** Step 2 or 3 for one due user: claim and send the period's mail when there is one, then move the due moment on (guarded by the one read). */
async function dueMail(deps: ReportDeps, user: UserDoc, kind: ReportKind, now: Date, result: ReportPassResult): Promise<void> {
  const setting = SETTING[kind];
  const every = user[setting.period];
  const tz = knownZone(user.tz);
  if (every !== 'off') {
    const period = kind === 'report' ? lastPeriod(every, tz, now) : periodAt(every, tz, now);
    const wanted = kind === 'report' || (await downNowOf(user)).length > 0;
    const claim = wanted ? await claimNew(user._id, kind, every, period, now, deps.leaseMs) : null;
    if (claim) await deliverCounted(deps, claim, result);
  }
  await User.updateOne({ _id: user._id, [setting.due]: user[setting.due] }, { $set: { [setting.due]: nextDue(every, tz, now) } });
}

/**
 * One pass (steps 1–3 above), users one at a time.
 * @throws the MongoDB error of a read or a due update (the next pass goes on from there); a mail's own failure is only logged.
 */
export async function runReports(deps: ReportDeps): Promise<ReportPassResult> {
  const now = deps.clock();
  const result = { sent: 0, skipped: 0 };
  for (const claim of await retakeLapsed(now, deps.leaseMs)) await deliverCounted(deps, claim, result);
  for (const kind of ['report', 'reminder'] as const) {
    const due = SETTING[kind].due;
    await User.find({ [due]: { $lte: now } }).lean<UserDoc>().cursor().eachAsync((user: UserDoc) => dueMail(deps, user, kind, now, result));
  }
  if (result.sent + result.skipped > 0) log.info(result, 'report pass');
  return result;
}

/**
 * Starts the `reports` consumer (one pass at a time) and upserts its job scheduler, every REPORT_INTERVAL_MS milliseconds (idempotent: every worker
 * process does it at start). A scheduler a Redis flush deleted is back when a worker restarts.
 */
export function reportWorker(deps: WorkerDeps): Worker<unknown, ReportPassResult> {
  const queue = new Queue(QueueName.Reports, bullOptions(deps.connection));
  void queue
    .upsertJobScheduler(REPORT_SCHEDULER_ID, { every: config.reportIntervalMs }, { name: 'reports', opts: { removeOnComplete: true, removeOnFail: 100 } })
    .catch((err: unknown) => log.error({ err }, 'cannot schedule the report pass'))
    .finally(() => queue.close());
  const reportDeps = { clock: deps.clock, mail: deps.notify ?? config.notify, leaseMs: config.reportLeaseMs };
  return new Worker<unknown, ReportPassResult>(QueueName.Reports, () => runReports(reportDeps), { ...workerOptions(deps.connection), concurrency: 1 });
}

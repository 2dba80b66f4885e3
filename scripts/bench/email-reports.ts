/**
 * The email reports' share of the `pages` bench phase (docs/reports.md): the account page holding the report settings, and building one report
 * (content read from MongoDB and the mail rendered) for a project of {@link REPORT_CHECKS} checks with a day of flips each, p50/p95 over
 * {@link SAMPLES} sequential runs, milliseconds.
 */
import { randomUUID } from 'node:crypto';
import { Check } from '../../shared/models/check.js';
import { Flip } from '../../shared/models/flip.js';
import { Membership } from '../../shared/models/membership.js';
import { User, type UserDoc } from '../../shared/models/user.js';
import { lastPeriod } from '../../shared/domain/report-period.js';
import { reportOf } from '../../shared/reports/content.js';
import { reportMail } from '../../shared/reports/mail.js';
import type { PagesStage } from './pages-stage.js';


/** Checks seeded in the stage's project, each with 4 flips in the reported day. */
export const REPORT_CHECKS = 1000;
/** Sequential runs of each measurement. */
const SAMPLES = 50;

/** Nearest-rank p50 and p95 of milliseconds, rounded to 0.1 ms. */
function p50p95(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  return `p50 ${rank(50).toFixed(1)} ms, p95 ${rank(95).toFixed(1)} ms (n=${sorted.length})`;
}

/** Milliseconds each of `SAMPLES` sequential runs of `run` takes. */
async function timed(run: () => Promise<void>): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const started = performance.now();
    await run();
    ms.push(performance.now() - started);
  }
  return ms;
}

/**
 * Seeds the checks and flips (insertMany), measures GET /account/ over HTTP and the report build in this process, and prints both.
 * @throws Error when the account page does not answer 200 or the stage's project has no owner.
 */
export async function benchEmailReports(stage: PagesStage): Promise<void> {
  const now = new Date();
  const day = lastPeriod('daily', 'UTC', now);
  const created = new Date(day.start.getTime() - 86_400_000);
  const checks = Array.from({ length: REPORT_CHECKS }, (_, i) => ({
    _id: randomUUID(), projectId: stage.projectId, badgeKey: randomUUID(), name: `job-${i}`, status: 'up', created,
  }));
  await Check.insertMany(checks);
  const hour = 3_600_000;
  await Flip.insertMany(checks.flatMap((c) => [1, 2, 3, 4].map((h) => ({
    checkId: c._id, created: new Date(day.start.getTime() + h * 3 * hour), recorded: now, oldStatus: h % 2 ? 'up' : 'down', newStatus: h % 2 ? 'down' : 'up', reason: '',
  }))));
  const owner = await Membership.findOne({ projectId: stage.projectId, role: 'owner' }).lean();
  if (!owner) throw new Error('the stage project has no owner');

  const page = await timed(async () => {
    const res = await fetch(`${stage.origin}/account/`, { headers: { cookie: stage.cookie } });
    await res.text();
    if (res.status !== 200) throw new Error(`GET /account/ answered ${res.status}`);
  });
  stage.out(`email reports: GET /account/ (report settings) ${p50p95(page)}`);
  const ctx = { to: 'bench@example.org', tz: 'UTC', every: 'daily', siteName: 'bench', baseUrl: stage.origin, unsubscribeUrl: `${stage.origin}/x`, locked: 0 };
  const viewer = await User.findById(owner.userId).lean<UserDoc>();
  if (!viewer) throw new Error('the stage project\'s owner has no account');
  const build = await timed(async () => {
    reportMail(ctx, day, await reportOf(viewer, day));
  });
  stage.out(`email reports: build a daily report of ${REPORT_CHECKS} checks ${p50p95(build)}`);
}

import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { Report, type ReportDoc } from '../../shared/models/report.js';
import { User } from '../../shared/models/user.js';
import { buildCheck, buildProject } from '../helpers/factories.js';
import { startNode, waitForOutput, type Child } from '../helpers/processes.js';
import { startHoldingSmtp, type HoldingSmtp } from '../helpers/smtp-hold.js';
import { waitFor } from '../helpers/poll.js';
import { buildUser, join } from '../helpers/web.js';
import { FAST_WORKER_ENV } from '../helpers/worker-crash.js';

/** A report pass every 300 ms and claims of 2 s (milliseconds), so the killed worker's mail is retaken within seconds. */
const REPORT_ENV = { ...FAST_WORKER_ENV, LOG_LEVEL: 'info', REPORT_INTERVAL_MS: '300', REPORT_LEASE_MS: '2000' };
/** How long the survivor is watched after both mails arrived, for a repeat (milliseconds): two leases and several passes. */
const REPEAT_WATCH_MS = 5000;

/**
 * Exactly once (docs/reports.md, "Sending, exactly once"): a report and a reminder each received once by a real SMTP server with two worker processes, one of them killed
 * (SIGKILL) in the middle of sending: the server holds its reply to the first message's DATA, and the worker that sent it (known by its sender
 * address) is killed while it waits.
 */
describe('fault: one of two workers killed (SIGKILL) while sending a report mail', function () {
  this.timeout(180_000);
  let smtp: HoldingSmtp;
  let workers: Child[] = [];
  beforeEach(async () => {
    smtp = await startHoldingSmtp();
  });
  afterEach(async () => {
    await Promise.all(workers.map((w) => w.stop('SIGKILL').catch(() => undefined)));
    workers = [];
    await smtp.close();
  });

  it('the other worker sends the report and the reminder, each exactly once', async () => {
    const senders = ['worker-a@example.org', 'worker-b@example.org'];
    workers = senders.map((from) => startNode('workers/main.js', { ...REPORT_ENV, SMTP_URL: smtp.url, DEFAULT_FROM_EMAIL: from }));
    await Promise.all(workers.map((w) => waitForOutput(w, 'workers started', 120_000)));
    const user = await buildUser('ann@example.org');
    const project = await buildProject({ name: 'web' });
    await join(project.project._id, user, 'owner');
    await buildCheck(project, { name: 'backup', status: 'down' });
    const past = new Date(Date.now() - 1000);
    await User.updateOne({ _id: user._id }, { $set: { reportPeriod: 'daily', reportDue: past, reminderPeriod: 'hourly', reminderDue: past } });

    const from = await waitFor('the held message', () => Promise.resolve(smtp.heldFrom()), 60_000);
    const killed = workers[senders.indexOf(from)];
    const survivor = workers[1 - senders.indexOf(from)];
    killed.process.kill('SIGKILL');
    const kinds = (): string[] => smtp.messages.map((m) => (m.mail.subject ?? '').replace(/^.* (report|reminder).*$/, '$1')).sort();
    await waitFor('a report and a reminder', async () => kinds().length >= 2, 60_000).catch((err: unknown) => {
      throw new Error(`${String(err)}; received ${JSON.stringify(kinds())}; survivor's output:\n${survivor.output()}`);
    });
    await sleep(REPEAT_WATCH_MS);
    expect(kinds()).to.deep.equal(['reminder', 'report']);
    expect(smtp.messages.every((m) => m.to.join() === 'ann@example.org')).to.equal(true);
    const records = await Report.find().lean<ReportDoc[]>();
    expect(records.map((r) => r.state)).to.deep.equal(['sent', 'sent']);
    // The held mail was claimed twice: by the killed worker, then by the survivor once the claim lapsed.
    expect(records.map((r) => r.attempts).sort()).to.deep.equal([1, 2]);
  });
});

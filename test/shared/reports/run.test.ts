/** The report pass (shared/reports/run.ts) in this process, with a fixed clock and a real local SMTP server: content, once per period, retries. */
import { expect } from 'chai';
import { config } from '../../../shared/config.js';
import { Flip } from '../../../shared/models/flip.js';
import { Report } from '../../../shared/models/report.js';
import { User, type UserDoc } from '../../../shared/models/user.js';
import { runReports, type ReportDeps } from '../../../shared/reports/run.js';
import { buildCheck, buildProject } from '../../helpers/factories.js';
import { startSmtp, type SmtpReceiver } from '../../helpers/smtp-receiver.js';
import { buildUser, join } from '../../helpers/web.js';

/** Saturday 2026-11-28 00:30 UTC: the day of the 27th has ended. */
const NOW = new Date('2026-11-28T00:30:00Z');
const HOUR_MS = 3600_000;

describe('report pass', () => {
  let smtp: SmtpReceiver;
  let user: UserDoc;
  let clock: Date;
  const deps = (): ReportDeps => ({ clock: () => clock, mail: { ...config.notify, smtpUrl: smtp.url }, leaseMs: 60_000 });
  const subjects = (): string[] => smtp.messages.map((m) => m.mail.subject ?? '');

  beforeEach(async () => {
    smtp = await startSmtp();
    clock = NOW;
    user = await buildUser('ann@example.org');
    const project = await buildProject({ name: 'Web <b>&</b>' });
    await join(project.project._id, user, 'owner');
    const check = await buildCheck(project, { name: '<script>backup</script>', status: 'up', created: new Date('2026-11-01T00:00:00Z') });
    await Flip.create([
      { checkId: check._id, created: new Date('2026-11-27T06:00:00Z'), recorded: NOW, oldStatus: 'up', newStatus: 'down', reason: 'timeout' },
      { checkId: check._id, created: new Date('2026-11-27T12:00:00Z'), recorded: NOW, oldStatus: 'down', newStatus: 'up', reason: '' },
    ]);
  });
  afterEach(() => smtp.close());

  it('sends the daily report of the day that ended once, with downtime and uptime, names escaped in HTML, and moves reportDue on', async () => {
    await User.updateOne({ _id: user._id }, { $set: { reportPeriod: 'daily', reportDue: new Date('2026-11-28T00:00:00Z') } });
    expect(await runReports(deps())).to.deep.equal({ sent: 1, skipped: 0 });
    expect(await runReports(deps())).to.deep.equal({ sent: 0, skipped: 0 });
    expect(subjects()).to.deep.equal([`${config.siteName} daily report: 2026-11-27`]);
    const { mail } = smtp.messages[0];
    expect(mail.text).to.include('<script>backup</script>: up, 1 downtimes, 6 h down, uptime 75.00%');
    expect(mail.html).to.include('&lt;script&gt;backup&lt;/script&gt;').and.include('Web &lt;b&gt;&amp;&lt;/b&gt;').and.not.include('<script>');
    const header = (key: string): string => (mail.headerLines.find((line) => line.key === key)?.line ?? '').replace(/\r?\n\s+/g, ' ');
    expect(header('list-unsubscribe-post')).to.equal('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(header('list-unsubscribe')).to.include(`${config.baseUrl}/account/reports/unsubscribe/${user._id}.report.`);
    expect((await User.findById(user._id).lean<UserDoc>())?.reportDue).to.deep.equal(new Date('2026-11-29T00:00:00Z'));
  });

  it('sends no reminder while nothing is down, one per hour while a check is down', async () => {
    await User.updateOne({ _id: user._id }, { $set: { reminderPeriod: 'hourly', reminderDue: NOW } });
    expect((await runReports(deps())).sent).to.equal(0);
    const project = await buildProject({ name: 'db' });
    await join(project.project._id, user, 'rw');
    await buildCheck(project, { name: 'nightly', status: 'down' });
    clock = new Date(NOW.getTime() + HOUR_MS);
    expect((await runReports(deps())).sent).to.equal(1);
    expect((await runReports(deps())).sent).to.equal(0);
    clock = new Date(NOW.getTime() + 2 * HOUR_MS);
    expect((await runReports(deps())).sent).to.equal(1);
    expect(subjects()).to.deep.equal([`${config.siteName} reminder: One check is down.`, `${config.siteName} reminder: One check is down.`]);
    expect(smtp.messages[0].mail.text).to.match(/db\n {2}nightly/);
  });

  it('retakes a claim whose lease ran out (a killed worker) and sends it once; a refused mail is retried after its lease', async () => {
    await User.updateOne({ _id: user._id }, { $set: { reportPeriod: 'daily', reportDue: NOW } });
    const refusing = await startSmtp(550);
    const failing = { ...deps(), mail: { ...config.notify, smtpUrl: refusing.url } };
    expect(await runReports(failing)).to.deep.equal({ sent: 0, skipped: 0 });
    await refusing.close();
    expect(await Report.findOne().lean()).to.include({ state: 'sending', attempts: 1 });
    expect((await runReports(deps())).sent, 'still leased').to.equal(0);
    clock = new Date(NOW.getTime() + 61_000);
    expect((await runReports(deps())).sent).to.equal(1);
    expect((await runReports(deps())).sent).to.equal(0);
    expect(smtp.messages).to.have.length(1);
    expect(await Report.findOne().lean()).to.include({ state: 'sent', attempts: 2 });
  });

  it('skips a claimed mail whose setting was turned off before the retry', async () => {
    await User.updateOne({ _id: user._id }, { $set: { reportPeriod: 'daily', reportDue: NOW } });
    const refusing = await startSmtp(550);
    await runReports({ ...deps(), mail: { ...config.notify, smtpUrl: refusing.url } });
    await refusing.close();
    await User.updateOne({ _id: user._id }, { $set: { reportPeriod: 'off', reportDue: null } });
    clock = new Date(NOW.getTime() + 61_000);
    expect(await runReports(deps())).to.deep.equal({ sent: 0, skipped: 1 });
    expect(smtp.messages).to.have.length(0);
  });
});

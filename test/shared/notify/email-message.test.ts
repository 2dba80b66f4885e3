/**
 * Email alerts carry what one needs to act (shared/notify/email-message.ts): the project, tags, schedule, the last
 * ping's time and body, escaped in the HTML part, and a link to the check's page (every alert's link: message.ts).
 */
import { expect } from 'chai';
import { deliver } from '../../../shared/notify/deliver.js';
import { alertOf } from '../../../shared/notify/message.js';
import { Ping, type PingDoc } from '../../../shared/models/ping.js';
import type { CheckDoc } from '../../../shared/models/check.js';
import { buildCheck, buildProject } from '../../helpers/factories.js';
import { startSmtp, type SmtpReceiver } from '../../helpers/smtp-receiver.js';
import { testNotifyConfig } from '../../helpers/alerts.js';

const BASE = 'http://localhost:8000';
const LAST_PING = new Date('2026-11-20T08:00:05Z');

/** A ping of `check` numbered `n` with `body`. */
function pingOf(check: CheckDoc, n: number, body: Buffer | null, created = LAST_PING): Partial<PingDoc> {
  return { checkId: check._id, n, created, kind: 'fail' as const, scheme: 'http', remoteAddr: '127.0.0.1', method: 'POST', ua: 'curl', body, exitStatus: null, rid: null };
}

/** A down alert of `check` as the alert path makes it. */
function downAlert(check: CheckDoc) {
  return alertOf('b1946ac9-2f3e-4d5f-8a6b-7c8d9e0f1a2b', check, { newStatus: 'down', reason: 'fail', created: new Date('2026-11-20T08:00:06Z') }, BASE);
}

describe('email alerts', () => {
  let smtp: SmtpReceiver;
  beforeEach(async () => {
    smtp = await startSmtp();
  });
  afterEach(() => smtp.close());

  it("links every alert to the check's page, and keeps the API URL as the JSON's update_url", async () => {
    const built = await buildProject();
    const check = await buildCheck(built, { name: 'backup' });
    const alert = downAlert(check);
    expect(alert.detailsUrl).to.equal(`${BASE}/projects/${built.project._id}/checks/${check._id}/`);
    expect(alert.updateUrl).to.equal(`${BASE}/api/v3/checks/${check._id}`);
  });

  it('sends HTML and text parts with the project, tags, schedule, last ping and its body escaped, and the link', async () => {
    const built = await buildProject({ name: 'Ops <b>team</b>' });
    const check = await buildCheck(built, { name: 'backup', tags: 'prod <db>', kind: 'cron', schedule: '0 3 * * *', tz: 'Europe/Riga', grace: 3600, lastPing: LAST_PING });
    await Ping.create(pingOf(check, 1, Buffer.from('older'), new Date('2026-11-19T08:00:00Z')));
    await Ping.create(pingOf(check, 2, Buffer.from('dump failed <script>alert(1)</script> & exit 3')));
    const alert = downAlert(check);
    await deliver({ kind: 'email', value: 'alice@example.org' }, alert, testNotifyConfig('', { smtpUrl: smtp.url }));
    const { mail } = smtp.messages[0] ?? expect.fail('no message');
    const html = String(mail.html);
    expect(mail.text).to.contain('The check "backup" is DOWN: a failure signal was received.')
      .and.contain('Project: Ops <b>team</b>').and.contain('Tags: prod <db>')
      .and.contain('Schedule: cron "0 3 * * *" (Europe/Riga), grace 1 hour')
      .and.contain('Body of the last ping (fail, 2026-11-20T08:00:05+00:00):\ndump failed <script>alert(1)</script> & exit 3')
      .and.contain(`Details: ${BASE}/projects/${built.project._id}/checks/${check._id}/`);
    expect(html).to.contain('<td>Ops &lt;b&gt;team&lt;/b&gt;</td>').and.contain('<td>prod &lt;db&gt;</td>')
      .and.contain('<td>cron &quot;0 3 * * *&quot; (Europe/Riga), grace 1 hour</td>')
      .and.contain('<pre>dump failed &lt;script&gt;alert(1)&lt;/script&gt; &amp; exit 3</pre>')
      .and.contain(`<a href="${BASE}/projects/${built.project._id}/checks/${check._id}/">Open the check</a>`);
    expect(html).not.to.contain('<script>').and.not.to.contain('<b>team');
  });

  it('says a binary body is binary, cuts a long one to about 1 KB, and writes a simple schedule in human units', async () => {
    const built = await buildProject();
    const binary = await buildCheck(built, { name: 'bin', timeout: 86400, grace: 5400 });
    await Ping.create(pingOf(binary, 1, Buffer.from([0xff, 0xfe, 0x00, 0x01])));
    const long = await buildCheck(built, { name: 'long' });
    await Ping.create(pingOf(long, 1, Buffer.from('x'.repeat(5000))));
    const config = testNotifyConfig('', { smtpUrl: smtp.url });
    await deliver({ kind: 'email', value: 'a@example.org' }, downAlert(binary), config);
    await deliver({ kind: 'email', value: 'a@example.org' }, downAlert(long), config);
    const [first, second] = smtp.messages.map((m) => m.mail);
    expect(first?.text).to.contain('(binary body, 4 bytes: not shown)').and.contain('Schedule: every 1 day, grace 1 hour 30 minutes');
    expect(second?.text).to.contain(`${'x'.repeat(1024)}\n… (5000 bytes in all; the rest is cut)`).and.not.contain('x'.repeat(1025));
    expect(String(second?.html)).to.contain('(5000 bytes in all; the rest is cut)');
  });
});

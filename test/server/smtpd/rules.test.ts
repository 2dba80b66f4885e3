import { expect } from 'chai';
import type { SmtpdHandle } from '../../../server/smtpd/listener.js';
import { buildCheck, buildProject } from '../../helpers/factories.js';
import { storedCheck, storedPings } from '../../helpers/pings.js';
import { sendMail, startTestSmtpd, TEST_EMAIL_DOMAIN } from '../../helpers/smtp.js';

/** A matched failure keyword in an email is a failure signal for `fail_threshold` (docs/alerting-rules.md). */
describe('smtpd with fail_threshold', () => {
  let smtpd: SmtpdHandle;
  before(async () => {
    smtpd = await startTestSmtpd();
  });
  after(async () => {
    await smtpd.close();
  });

  it('keeps the check up on the first failure email and flips it down on the second', async () => {
    const check = await buildCheck(await buildProject(), { status: 'up', lastPing: new Date(), filterSubject: true, failureKw: 'FAIL', failThreshold: 2 });
    const mail = { to: `${check._id}@${TEST_EMAIL_DOMAIN}`, subject: 'backup FAIL', text: '' };
    await sendMail(smtpd.port, mail);
    expect([(await storedPings(check._id)).map((p) => p.kind), (await storedCheck(check._id)).status]).to.deep.equal([['fail'], 'up']);
    await sendMail(smtpd.port, mail);
    expect((await storedCheck(check._id)).status).to.equal('down');
  });
});

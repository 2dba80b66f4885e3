import { expect } from 'chai';
import type { SmtpdHandle } from '../../../server/smtpd/listener.js';
import { Ping } from '../../../shared/models/ping.js';
import { buildCheck, buildProject } from '../../helpers/factories.js';
import { openSmtp, smtpDialog, startTestSmtpd, TEST_EMAIL_DOMAIN } from '../../helpers/smtp.js';

describe('smtpd listener', () => {
  let smtpd: SmtpdHandle;
  beforeEach(async () => {
    smtpd = await startTestSmtpd();
  });
  afterEach(async () => {
    await smtpd.close();
  });

  it('greets with the ping email domain and offers neither AUTH nor STARTTLS', async () => {
    const [ehlo] = await smtpDialog(smtpd.port, ['EHLO c.test']);
    expect(ehlo).to.match(new RegExp(`^250-${TEST_EMAIL_DOMAIN} `));
    expect(ehlo).not.to.match(/AUTH|STARTTLS/);
  });

  it('refuses new connections once closed', async () => {
    await smtpd.close();
    const error = await openSmtp(smtpd.port).then(
      (session) => (session.destroy(), null),
      (err: Error) => err,
    );
    expect(error).to.be.instanceOf(Error);
  });

  it('answers a new command with 421 once closing', async () => {
    const session = await openSmtp(smtpd.port);
    const closing = smtpd.close();
    const reply = await session.command('EHLO c.test');
    session.destroy();
    await closing;
    expect(reply).to.equal('421 Server shutting down');
  });

  it('lets a message already in DATA finish and be stored while closing', async () => {
    const check = await buildCheck(await buildProject());
    const session = await openSmtp(smtpd.port);
    for (const line of ['EHLO c.test', 'MAIL FROM:<a@example.net>', `RCPT TO:<${check._id}@${TEST_EMAIL_DOMAIN}>`, 'DATA']) {
      await session.command(line);
    }
    const closing = smtpd.close();
    const reply = await session.command('Subject: late\r\n\r\nhello\r\n.');
    await session.quit();
    await closing;
    expect(reply).to.match(/^250 /);
    expect(await Ping.countDocuments({ checkId: check._id })).to.equal(1);
  });
});

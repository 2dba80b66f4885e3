import { expect } from 'chai';
import type { SmtpdHandle } from '../../../server/smtpd/listener.js';
import { Ping } from '../../../shared/models/ping.js';
import { buildCheck, buildProject } from '../../helpers/factories.js';
import { sendMail, smtpDialog, startTestSmtpd, TEST_EMAIL_DOMAIN } from '../../helpers/smtp.js';

/** Small limit so the tests send kilobytes, not the 10 MB default. */
const LIMIT_BYTES = 4096;

describe('smtpd message size limit', () => {
  let smtpd: SmtpdHandle;
  let address: string;
  before(async () => {
    smtpd = await startTestSmtpd({ maxMessageBytes: LIMIT_BYTES });
  });
  after(async () => {
    await smtpd.close();
  });
  beforeEach(async () => {
    address = `${(await buildCheck(await buildProject()))._id}@${TEST_EMAIL_DOMAIN}`;
  });

  it('advertises the limit in the EHLO reply', async () => {
    const [ehlo] = await smtpDialog(smtpd.port, ['EHLO c.test']);
    expect(ehlo).to.match(new RegExp(`^250[- ]SIZE ${LIMIT_BYTES}$`, 'm'));
  });

  it('refuses a message over the limit after DATA with 552 and records nothing', async () => {
    const body = `Subject: big\r\n\r\n${'x'.repeat(900)}\r\n`.repeat(6);
    const cmds = ['EHLO c.test', 'MAIL FROM:<a@example.net>', `RCPT TO:<${address}>`, 'DATA', `${body}.`];
    const replies = await smtpDialog(smtpd.port, cmds);
    expect(replies[4]).to.equal('552 5.3.4 Message size exceeds fixed maximum message size');
    expect(await Ping.countDocuments()).to.equal(0);
  });

  it('refuses a declared SIZE over the limit at MAIL FROM with 552', async () => {
    const replies = await smtpDialog(smtpd.port, ['EHLO c.test', `MAIL FROM:<a@example.net> SIZE=${LIMIT_BYTES + 1}`]);
    expect(replies[1]).to.match(/^552 /);
  });

  it('gives nodemailer a 552 for a message over the limit', async () => {
    const error = await sendMail(smtpd.port, { to: address, subject: 'big', text: 'x'.repeat(LIMIT_BYTES) }).then(
      () => null,
      (err: { responseCode?: number }) => err,
    );
    expect(error?.responseCode).to.equal(552);
  });

  it('accepts a message just under the limit', async () => {
    const body = `Subject: fits\r\n\r\n${'x'.repeat(LIMIT_BYTES - 100)}\r\n`;
    const cmds = ['EHLO c.test', 'MAIL FROM:<a@example.net>', `RCPT TO:<${address}>`, 'DATA', `${body}.`];
    expect((await smtpDialog(smtpd.port, cmds))[4]).to.match(/^250 /);
    expect(await Ping.countDocuments()).to.equal(1);
  });
});

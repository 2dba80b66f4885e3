import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { SmtpdHandle } from '../../../server/smtpd/listener.js';
import { Ping } from '../../../shared/models/ping.js';
import { buildCheck, buildProject } from '../../helpers/factories.js';
import { smtpDialog, startTestSmtpd, TEST_EMAIL_DOMAIN } from '../../helpers/smtp.js';

const ENVELOPE = ['EHLO client.test', 'MAIL FROM:<cron@example.net>'];
const DATA = ['DATA', 'Subject: hi\r\n\r\nhello\r\n.'];

describe('smtpd RCPT TO', () => {
  let smtpd: SmtpdHandle;
  before(async () => {
    smtpd = await startTestSmtpd();
  });
  after(async () => {
    await smtpd.close();
  });

  it('rejects another domain with 550 5.1.1 Recipient rejected', async () => {
    const replies = await smtpDialog(smtpd.port, [...ENVELOPE, `RCPT TO:<${randomUUID()}@example.com>`]);
    expect(replies[2]).to.equal('550 5.1.1 Recipient rejected');
  });

  it('rejects a mailbox that is neither a UUID nor ping key + slug with 550 5.1.1 Invalid mailbox', async () => {
    const replies = await smtpDialog(smtpd.port, [...ENVELOPE, `RCPT TO:<backup@${TEST_EMAIL_DOMAIN}>`]);
    expect(replies[2]).to.equal('550 5.1.1 Invalid mailbox');
  });

  it('accepts the UUID of a check that does not exist', async () => {
    const replies = await smtpDialog(smtpd.port, [...ENVELOPE, `RCPT TO:<${randomUUID()}@${TEST_EMAIL_DOMAIN}>`]);
    expect(replies[2]).to.match(/^250 /);
  });

  it('accepts a ping key + slug mailbox', async () => {
    const project = await buildProject();
    const replies = await smtpDialog(smtpd.port, [...ENVELOPE, `RCPT TO:<${project.pingKey}+backup@${TEST_EMAIL_DOMAIN}>`]);
    expect(replies[2]).to.match(/^250 /);
  });

  it('delivers to the accepted recipient when another one was rejected', async () => {
    const check = await buildCheck(await buildProject());
    const rcpts = [`RCPT TO:<nobody@${TEST_EMAIL_DOMAIN}>`, `RCPT TO:<${check._id}@${TEST_EMAIL_DOMAIN}>`];
    const replies = await smtpDialog(smtpd.port, [...ENVELOPE, ...rcpts, ...DATA]);
    expect(replies[5]).to.match(/^250 /);
    expect(await Ping.countDocuments({ checkId: check._id })).to.equal(1);
  });

  it('refuses DATA when every recipient was rejected', async () => {
    const replies = await smtpDialog(smtpd.port, [...ENVELOPE, `RCPT TO:<x@example.com>`, 'DATA']);
    expect(replies[3]).to.match(/^503 /);
  });
});

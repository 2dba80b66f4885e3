import { expect } from 'chai';
import type Mail from 'nodemailer/lib/mailer';
import type { SmtpdHandle } from '../../../server/smtpd/listener.js';
import { Check, type CheckDoc } from '../../../shared/models/check.js';
import { Flip } from '../../../shared/models/flip.js';
import { Ping } from '../../../shared/models/ping.js';
import { buildCheck, buildProject } from '../../helpers/factories.js';
import { sendMail, startTestSmtpd, TEST_EMAIL_DOMAIN } from '../../helpers/smtp.js';

const KEYWORDS = { startKw: 'Started', successKw: 'SUCCESS, OK', failureKw: 'FAIL' };

describe('smtpd keyword filters', () => {
  let smtpd: SmtpdHandle;
  before(async () => {
    smtpd = await startTestSmtpd();
  });
  after(async () => {
    await smtpd.close();
  });

  async function kindOf(fields: Partial<CheckDoc>, message: Mail.Options): Promise<string | undefined> {
    const check = await buildCheck(await buildProject(), { ...KEYWORDS, ...fields });
    await sendMail(smtpd.port, { to: `${check._id}@${TEST_EMAIL_DOMAIN}`, ...message });
    return (await Ping.findOne({ checkId: check._id }).lean())?.kind;
  }

  it('counts any email as success when no filter is on', async () => {
    expect(await kindOf({}, { subject: 'FAIL', text: 'FAIL' })).to.equal('success');
  });

  it('matches the subject with filter_subject', async () => {
    expect(await kindOf({ filterSubject: true }, { subject: 'Backup [OK]', text: '' })).to.equal('success');
  });

  it('does not look at the body with filter_subject only', async () => {
    expect(await kindOf({ filterSubject: true }, { subject: 'nightly', text: 'FAIL' })).to.equal('ign');
  });

  it('gives a start ping for a start keyword and records the start', async () => {
    const check = await buildCheck(await buildProject(), { ...KEYWORDS, filterSubject: true });
    await sendMail(smtpd.port, { to: `${check._id}@${TEST_EMAIL_DOMAIN}`, subject: 'Started backup', text: '' });
    expect((await Ping.findOne({ checkId: check._id }).lean())?.kind).to.equal('start');
    expect((await Check.findById(check._id).lean())?.lastStart).to.be.instanceOf(Date);
  });

  it('matches the HTML part of a multipart plain + HTML message with filter_body', async () => {
    const message = { subject: 'x', text: 'nightly run', html: '<p>Result: <b>SUCCESS</b></p>' };
    expect(await kindOf({ filterBody: true }, message)).to.equal('success');
  });

  it('matches the plain part of a multipart plain + HTML message with filter_body', async () => {
    const message = { subject: 'x', text: 'Result: FAIL', html: '<p>nightly run</p>' };
    expect(await kindOf({ filterBody: true }, message)).to.equal('fail');
  });

  it('does not match keywords inside HTML script or style', async () => {
    const html = '<style>.FAIL{}</style><script>var s = "FAIL";</script><p>nightly</p>';
    expect(await kindOf({ filterBody: true }, { subject: 'x', html })).to.equal('ign');
  });

  it('decodes an RFC 2047 encoded subject before matching', async () => {
    const raw = 'Subject: =?UTF-8?Q?Sauvegarde_r=C3=A9ussie?=\r\n\r\nbody\r\n';
    const kind = await kindOf({ filterSubject: true, successKw: 'réussie' }, { raw });
    expect(kind).to.equal('success');
  });

  it('matches non-ASCII keywords in a base64-encoded body', async () => {
    const message = { subject: 'x', text: 'Резервное копирование: ошибка', textEncoding: 'base64' as const };
    expect(await kindOf({ filterBody: true, failureKw: 'ошибка' }, message)).to.equal('fail');
  });

  it('prefers failure when both failure and success keywords match', async () => {
    expect(await kindOf({ filterSubject: true }, { subject: 'SUCCESS: 3, FAIL: 1', text: '' })).to.equal('fail');
  });

  it('ignores a non-matching email', async () => {
    expect(await kindOf({ filterSubject: true }, { subject: 'nightly', text: '' })).to.equal('ign');
  });

  it('fails a non-matching email with filter_default_fail, flipping the check down', async () => {
    const check = await buildCheck(await buildProject(), { ...KEYWORDS, filterSubject: true, filterDefaultFail: true, status: 'up' });
    await sendMail(smtpd.port, { to: `${check._id}@${TEST_EMAIL_DOMAIN}`, subject: 'nightly', text: '' });
    const flip = await Flip.findOne({ checkId: check._id }).lean();
    expect([flip?.newStatus, flip?.reason]).to.deep.equal(['down', 'fail']);
  });

  it('counts a non-matching email as success for a check set through the legacy subject_fail', async () => {
    const legacy = { filterSubject: true, legacySubject: true, startKw: '', successKw: '', failureKw: 'FAIL' };
    expect(await kindOf(legacy, { subject: 'nightly', text: '' })).to.equal('success');
  });

  it('is not affected by filter_http_body', async () => {
    expect(await kindOf({ filterHttpBody: true }, { subject: 'x', text: 'FAIL' })).to.equal('success');
  });

  it('ignores a matching email to a paused check with manual_resume, which stays paused', async () => {
    const check = await buildCheck(await buildProject(), { ...KEYWORDS, filterSubject: true, status: 'paused', manualResume: true });
    await sendMail(smtpd.port, { to: `${check._id}@${TEST_EMAIL_DOMAIN}`, subject: 'SUCCESS', text: '' });
    expect((await Ping.findOne({ checkId: check._id }).lean())?.kind).to.equal('ign');
    expect((await Check.findById(check._id).lean())?.status).to.equal('paused');
  });
});

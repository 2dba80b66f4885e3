import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { SmtpdHandle } from '../../../server/smtpd/listener.js';
import { Check, type CheckDoc } from '../../../shared/models/check.js';
import { Flip } from '../../../shared/models/flip.js';
import { Ping, type PingDoc } from '../../../shared/models/ping.js';
import { buildCheck, buildProject, type TestProject } from '../../helpers/factories.js';
import { sendMail, smtpDialog, startTestSmtpd, TEST_EMAIL_DOMAIN } from '../../helpers/smtp.js';

function addressOf(check: CheckDoc): string {
  return `${check._id}@${TEST_EMAIL_DOMAIN}`;
}

/** The check's pings as documents, whose `body` getter gives a Buffer (lean reads give a BSON Binary). */
async function pingsOf(check: CheckDoc): Promise<PingDoc[]> {
  return Ping.find({ checkId: check._id }).sort({ n: 1 });
}

describe('smtpd email pings', () => {
  let smtpd: SmtpdHandle;
  let project: TestProject;
  before(async () => {
    smtpd = await startTestSmtpd();
  });
  after(async () => {
    await smtpd.close();
  });
  beforeEach(async () => {
    project = await buildProject();
  });

  it('records a success ping and marks a new check up', async () => {
    const check = await buildCheck(project);
    await sendMail(smtpd.port, { to: addressOf(check), subject: 'Backup done', text: 'ok' });
    const [ping] = await pingsOf(check);
    expect(ping.kind).to.equal('success');
    expect((await Check.findById(check._id).lean())?.status).to.equal('up');
  });

  it('flips a down check up', async () => {
    const check = await buildCheck(project, { status: 'down' });
    await sendMail(smtpd.port, { to: addressOf(check), subject: 'Backup done', text: 'ok' });
    const flip = await Flip.findOne({ checkId: check._id }).lean();
    expect([flip?.oldStatus, flip?.newStatus]).to.deep.equal(['down', 'up']);
  });

  it('logs scheme email, empty method, the envelope sender as ua and the peer address', async () => {
    const check = await buildCheck(project);
    await sendMail(smtpd.port, { envelope: { from: 'bounce@example.net', to: addressOf(check) }, subject: 's', text: 't' });
    const [ping] = await pingsOf(check);
    expect(ping).to.include({ scheme: 'email', method: '', ua: 'Email from bounce@example.net', remoteAddr: '127.0.0.1' });
    expect([ping.rid, ping.exitStatus]).to.deep.equal([null, null]);
  });

  it('stores the whole raw message as the body, without the 10 kB cut', async () => {
    const check = await buildCheck(project);
    const raw = `From: cron@example.net\r\nSubject: big\r\n\r\n${'x'.repeat(998)}\r\n`.repeat(30);
    await sendMail(smtpd.port, { envelope: { from: 'cron@example.net', to: addressOf(check) }, raw });
    const [ping] = await pingsOf(check);
    expect(ping.body?.length).to.be.greaterThan(30_000);
    expect(ping.body?.toString('utf8')).to.equal(raw);
  });

  it('keeps the bytes of a dot-stuffed line', async () => {
    const check = await buildCheck(project);
    const body = 'Subject: dots\r\n\r\n.leading dot\r\n';
    const cmds = ['EHLO c.test', 'MAIL FROM:<a@example.net>', `RCPT TO:<${addressOf(check)}>`, 'DATA'];
    await smtpDialog(smtpd.port, [...cmds, `Subject: dots\r\n\r\n..leading dot\r\n.`]);
    const [ping] = await pingsOf(check);
    expect(ping.body?.toString('utf8')).to.equal(body);
  });

  it('logs an empty sender as "Email from "', async () => {
    const check = await buildCheck(project);
    const cmds = ['EHLO c.test', 'MAIL FROM:<>', `RCPT TO:<${addressOf(check)}>`, 'DATA', 'Subject: x\r\n\r\nbounce\r\n.'];
    await smtpDialog(smtpd.port, cmds);
    expect((await pingsOf(check))[0].ua).to.equal('Email from ');
  });

  it('accepts a message to an unknown check and records nothing', async () => {
    const info = await sendMail(smtpd.port, { to: `${randomUUID()}@${TEST_EMAIL_DOMAIN}`, subject: 's', text: 't' });
    expect(info.response).to.match(/^250 /);
    expect(await Ping.countDocuments()).to.equal(0);
  });

  it('records a ping for a <ping_key>+<slug> address', async () => {
    const check = await buildCheck(project, { slug: 'db-backup' });
    await sendMail(smtpd.port, { to: `${project.pingKey}+db-backup@${TEST_EMAIL_DOMAIN}`, subject: 's', text: 't' });
    expect((await pingsOf(check)).map((p) => p.kind)).to.deep.equal(['success']);
  });

  it('skips an ambiguous slug but still accepts the message', async () => {
    await buildCheck(project, { slug: 'twin' });
    await buildCheck(project, { slug: 'twin' });
    const info = await sendMail(smtpd.port, { to: `${project.pingKey}+twin@${TEST_EMAIL_DOMAIN}`, subject: 's', text: 't' });
    expect(info.response).to.match(/^250 /);
    expect(await Ping.countDocuments()).to.equal(0);
  });

  it('does not match a slug of another project', async () => {
    await buildCheck(await buildProject({ name: 'other' }), { slug: 'backup' });
    await sendMail(smtpd.port, { to: `${project.pingKey}+backup@${TEST_EMAIL_DOMAIN}`, subject: 's', text: 't' });
    expect(await Ping.countDocuments()).to.equal(0);
  });

  it('processes each recipient on its own', async () => {
    const first = await buildCheck(project);
    const second = await buildCheck(project, { status: 'paused', manualResume: true });
    await sendMail(smtpd.port, { to: [addressOf(first), addressOf(second)], subject: 's', text: 't' });
    expect((await pingsOf(first)).map((p) => p.kind)).to.deep.equal(['success']);
    expect((await pingsOf(second)).map((p) => p.kind)).to.deep.equal(['ign']);
  });

  it('counts the ping in n_pings and numbers it', async () => {
    const check = await buildCheck(project, { nPings: 4 });
    await sendMail(smtpd.port, { to: addressOf(check), subject: 's', text: 't' });
    expect((await pingsOf(check))[0].n).to.equal(5);
    expect((await Check.findById(check._id).lean())?.nPings).to.equal(5);
  });
});

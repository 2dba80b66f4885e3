/**
 * A project's "members need a second factor" rule on every path, from outside: a member without a factor sees
 * nothing of such a project in the project list, the live glance, the header's switcher, email reports and
 * reminders (a real SMTP receiver), and cannot transfer a check into it.
 */
import { expect } from 'chai';
import { config } from '../../shared/config.js';
import { Check } from '../../shared/models/check.js';
import { Flip } from '../../shared/models/flip.js';
import { Project } from '../../shared/models/project.js';
import { User, type UserDoc } from '../../shared/models/user.js';
import { runReports } from '../../shared/reports/run.js';
import { buildCheck, buildProject, type TestProject } from '../helpers/factories.js';
import { startSmtp, type SmtpReceiver } from '../helpers/smtp-receiver.js';
import { buildUser, csrfOf, join, signIn, webAgent } from '../helpers/web.js';

const NOW = new Date('2026-11-28T00:30:00Z');

describe('security: the project second-factor rule on every path', () => {
  let locked: TestProject;
  let open: TestProject;
  let bob: UserDoc;
  let hidden: string;

  beforeEach(async () => {
    locked = await buildProject({ name: 'Vault' });
    await Project.updateOne({ _id: locked.project._id }, { $set: { requireSecondFactor: true } });
    open = await buildProject({ name: 'Garden' });
    bob = await buildUser('bob@example.org');
    await join(locked.project._id, bob, 'rw');
    await join(open.project._id, bob, 'rw');
    // An unnamed check: mails show its UUID, which is a ping credential.
    const down = await buildCheck(locked, { name: '', status: 'down', created: new Date('2026-11-01T00:00:00Z') });
    hidden = down._id;
    await Flip.create({ checkId: down._id, created: new Date('2026-11-27T06:00:00Z'), recorded: NOW, oldStatus: 'up', newStatus: 'down', reason: 'timeout' });
    await buildCheck(open, { name: 'garden-backup', status: 'down', created: new Date('2026-11-01T00:00:00Z') });
  });

  describe('reports and reminders', () => {
    let smtp: SmtpReceiver;
    beforeEach(async () => {
      smtp = await startSmtp();
    });
    afterEach(() => smtp.close());
    const deps = () => ({ clock: () => NOW, mail: { ...config.notify, smtpUrl: smtp.url }, leaseMs: 60_000 });

    it('leaves a locked project out of the hourly reminder and says why in one line', async () => {
      await User.updateOne({ _id: bob._id }, { $set: { reminderPeriod: 'hourly', reminderDue: new Date('2026-11-28T00:00:00Z') } });
      expect((await runReports(deps())).sent).to.equal(1);
      const { mail } = smtp.messages[0];
      for (const part of [mail.text ?? '', String(mail.html)]) {
        expect(part).to.contain('garden-backup').and.not.contain(hidden).and.not.contain('Vault');
        expect(part).to.contain('1 project is left out: it asks for a second factor');
      }
    });

    it('leaves a locked project out of the daily report', async () => {
      await User.updateOne({ _id: bob._id }, { $set: { reportPeriod: 'daily', reportDue: new Date('2026-11-28T00:00:00Z') } });
      expect((await runReports(deps())).sent).to.equal(1);
      const { mail } = smtp.messages[0];
      expect(mail.text).to.contain('garden-backup').and.not.contain(hidden).and.not.contain(locked.project._id);
      expect(mail.text).to.contain('1 project is left out: it asks for a second factor');
    });

    it('sends no reminder when only a locked project has a check down', async () => {
      await Check.updateMany({ projectId: open.project._id }, { $set: { status: 'up' } });
      await User.updateOne({ _id: bob._id }, { $set: { reminderPeriod: 'hourly', reminderDue: new Date('2026-11-28T00:00:00Z') } });
      expect((await runReports(deps())).sent).to.equal(0);
      expect(smtp.messages).to.have.length(0);
    });
  });

  it('shows a locked project in the list only as needing a second factor, with no counts, and leaves it out of the glance', async () => {
    const agent = webAgent();
    await signIn(agent, 'bob@example.org');
    const list = await agent.get('/projects/');
    expect(list.status).to.equal(200);
    const card = new RegExp(`<li data-project="${locked.project._id}"[^]*?</li>`).exec(list.text)?.[0] ?? '';
    expect(card).to.contain('needs a second factor: add one').and.not.contain('data-count').and.not.contain('data-down');
    expect(list.text).to.not.contain(hidden);
    const glance = await agent.get('/projects/glance.json');
    expect(glance.body).to.deep.equal({ down: 1, checks: [] });
    // The header's switcher on every page: no down count of the locked project.
    const switcher = /<select id="switch-project"[^]*?<\/select>/.exec(list.text)?.[0] ?? '';
    expect(switcher).to.not.match(new RegExp(`value="${locked.project._id}"[^>]*>[^<]*\\(1 down\\)`));
  });

  it('refuses to transfer a check into a locked project, moving nothing', async () => {
    const check = await buildCheck(open, { name: 'moving' });
    const agent = webAgent();
    await signIn(agent, 'bob@example.org');
    const one = `/projects/${open.project._id}/checks/${check._id}/`;
    const page = await agent.get(one);
    const choices = /<select id="transfer-project"[^]*?<\/select>/.exec(page.text)?.[0] ?? '';
    expect(choices).to.not.contain(locked.project._id);
    const res = await agent.post(`${one}transfer`).type('form').send({ _csrf: csrfOf(page.text), project: locked.project._id });
    expect(res.status).to.equal(403);
    expect(res.text).to.contain('second factor');
    expect(await Check.findById(check._id).lean()).to.include({ projectId: open.project._id });
  });

  it('refuses to transfer a check out of a locked project, moving nothing', async () => {
    const check = await buildCheck(locked, { name: 'staying' });
    const agent = webAgent();
    const _csrf = csrfOf((await agent.get('/signin/')).text);
    await agent.post('/signin/').type('form').send({ _csrf, email: 'bob@example.org', password: 'correct horse battery' });
    const token = csrfOf((await agent.get('/projects/')).text);
    const res = await agent.post(`/projects/${locked.project._id}/checks/${check._id}/transfer`).type('form').send({ _csrf: token, project: open.project._id });
    expect(res.status).to.equal(303);
    expect(res.headers.location).to.equal('/account/two-factor/totp');
    expect(await Check.findById(check._id).lean()).to.include({ projectId: locked.project._id });
  });
});

/**
 * The small ones, from outside: `nosniff` on every answer, report unsubscribe links that expire after a year and do
 * not show the address, "Ping now" without the member's address in the ping log, and a per-address sign-in lock that
 * says the mailed sign-in link still works (it does).
 */
import { expect } from 'chai';
import { config } from '../../shared/config.js';
import { User } from '../../shared/models/user.js';
import { runReports } from '../../shared/reports/run.js';
import { ATTEMPTS_PER_EMAIL } from '../../server/pages/kit/limits.js';
import { buildCheck, buildProject, http } from '../helpers/factories.js';
import { storedPings } from '../helpers/pings.js';
import { startSmtp } from '../helpers/smtp-receiver.js';
import { buildUser, csrfOf, join, signIn, tokenOf, webAgent } from '../helpers/web.js';
import { linkPathIn, mailTo, useMailbox } from '../helpers/mailbox.js';

const YEAR_MS = 365 * 24 * 3600_000;

describe('security: the small ones', () => {
  const box = useMailbox();

  it('sends X-Content-Type-Options: nosniff on every answer', async () => {
    const built = await buildProject();
    const { project, apiKey } = built;
    const check = await buildCheck(built);
    const api = http();
    const answers = [
      await api.get('/api/v3/checks/').set('X-Api-Key', apiKey),
      await api.get('/api/v3/checks/'),
      await api.post('/api/v3/checks/').set('X-Api-Key', apiKey).send('{not json'),
      await api.get('/api/v3/status/'),
      await api.get(`/ping/${check._id}`),
      await api.get('/ping/not-a-check'),
      await api.get(`/badge/${project.badgeKey}/abcdefgh/x.svg`),
      await api.get('/signin/'),
      await api.get('/no/such/page'),
    ];
    for (const [i, res] of answers.entries()) expect(res.headers['x-content-type-options'], `answer ${i} (${res.status})`).to.equal('nosniff');
  });

  it('makes report unsubscribe links that do not show the address and expire after a year', async () => {
    const smtp = await startSmtp();
    try {
      const user = await buildUser('ann@example.org');
      await User.updateOne({ _id: user._id }, { $set: { reportPeriod: 'daily', reportDue: new Date(Date.now() - 1000) } });
      await runReports({ clock: () => new Date(), mail: { ...config.notify, smtpUrl: smtp.url }, leaseMs: 60_000 });
      const link = new URL(/https?:\/\/\S+\/account\/reports\/unsubscribe\/\S+/.exec(smtp.messages[0].mail.text ?? '')?.[0] ?? 'http://x/').pathname;
      const page = await webAgent().get(link);
      expect(page.status).to.equal(200);
      expect(page.text).to.not.contain('ann@example.org');
      const late = () => new Date(Date.now() + YEAR_MS + 24 * 3600_000);
      expect((await webAgent({}, late).get(link)).status).to.equal(410);
      expect((await webAgent({}, late).post(link)).status).to.equal(410);
      expect((await User.findById(user._id).lean())?.reportPeriod).to.equal('daily');
    } finally {
      await smtp.close();
    }
  });

  it('records "Ping now" as the web app and the user id, without the member’s address', async () => {
    const built = await buildProject();
    const check = await buildCheck(built, { name: 'now' });
    const user = await buildUser('eve@example.org');
    await join(built.project._id, user, 'rw');
    const agent = webAgent();
    await signIn(agent, 'eve@example.org');
    const one = `/projects/${built.project._id}/checks/${check._id}/`;
    const _csrf = csrfOf((await agent.get(one)).text);
    expect((await agent.post(`${one}ping`).type('form').send({ _csrf })).status).to.equal(303);
    const [ping] = await storedPings(check._id);
    expect(ping.ua).to.equal(`hc-monitor web app (user ${user._id})`);
  });

  it('says at the per-address sign-in lock that a mailed sign-in link still works, and it does', async () => {
    await buildUser('fay@example.org');
    const agent = webAgent({ smtpUrl: box.smtp.url });
    const _csrf = await tokenOf(agent);
    for (let i = 0; i < ATTEMPTS_PER_EMAIL; i += 1) await agent.post('/signin/').type('form').send({ _csrf, email: 'fay@example.org', password: 'wrong password' });
    const locked = await agent.post('/signin/').type('form').send({ _csrf, email: 'fay@example.org', password: 'wrong password' });
    expect(locked.status).to.equal(429);
    expect(locked.text).to.contain('href="/signin/link/"').and.contain('sign-in link by email still works');
    const asked = await agent.post('/signin/link/').type('form').send({ _csrf: csrfOf((await agent.get('/signin/link/')).text), email: 'fay@example.org' });
    expect(asked.status).to.be.oneOf([200, 303]);
    const path = linkPathIn(await mailTo(box, 'fay@example.org'));
    const page = await agent.get(path);
    expect((await agent.post(path).type('form').send({ _csrf: csrfOf(page.text) })).status).to.equal(303);
    expect((await agent.get('/account/')).status).to.equal(200);
  });
});

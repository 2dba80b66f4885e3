/** Email reports and reminders on the account page (server/pages/account/reports.ts; docs/reports.md): the settings form and the unsubscribe link. */
import { expect } from 'chai';
import { config } from '../../../shared/config.js';
import { User, type UserDoc } from '../../../shared/models/user.js';
import { unsubscribeToken } from '../../../shared/reports/links.js';
import { buildUser, csrfOf, signIn, webAgent } from '../../helpers/web.js';

/** The app's clock in these tests: Saturday 2026-11-28 10:00 UTC. */
const NOW = new Date('2026-11-28T10:00:00Z');

async function userOf(email: string): Promise<UserDoc> {
  return (await User.findOne({ email }).lean<UserDoc>())!;
}

describe('account page: email reports and reminders', () => {
  beforeEach(() => buildUser('ann@example.org'));

  it('shows both settings off, then saves a weekly report and hourly reminders due at the end of the current period in the user zone', async () => {
    await User.updateOne({ email: 'ann@example.org' }, { $set: { tz: 'Europe/Berlin' } });
    const agent = webAgent({}, () => NOW);
    await signIn(agent, 'ann@example.org');
    const page = await agent.get('/account/');
    expect(page.text).to.match(/<option value="off" selected>Off<\/option>/);
    const _csrf = csrfOf(page.text);
    const saved = await agent.post('/account/reports').type('form').send({ _csrf, report: 'weekly', reminder: 'hourly' });
    expect(saved.status).to.equal(303);
    expect(saved.headers.location).to.equal('/account/#reports');
    const user = await userOf('ann@example.org');
    expect([user.reportPeriod, user.reminderPeriod]).to.deep.equal(['weekly', 'hourly']);
    // Monday 2026-11-30 00:00 in Berlin; the hour ending 11:00 UTC.
    expect(user.reportDue).to.deep.equal(new Date('2026-11-29T23:00:00Z'));
    expect(user.reminderDue).to.deep.equal(new Date('2026-11-28T11:00:00Z'));
    const again = await agent.get('/account/');
    expect(again.text).to.match(/<option value="weekly" selected>/);
    expect(again.text).to.include('Reports: weekly. Reminders: hourly.');
  });

  it('answers a value that is not a choice with a 400 page and changes nothing', async () => {
    const agent = webAgent();
    await signIn(agent, 'ann@example.org');
    const _csrf = csrfOf((await agent.get('/account/')).text);
    const res = await agent.post('/account/reports').type('form').send({ _csrf, report: 'yearly', reminder: 'off' });
    expect(res.status).to.equal(400);
    expect(res.text).to.include('Choose how often to get the report');
    expect((await userOf('ann@example.org')).reportPeriod).to.equal('off');
  });

  it('sends a visitor who is not signed in to the sign-in page', async () => {
    const res = await webAgent().post('/account/reports').type('form').send({ report: 'daily', reminder: 'off' });
    expect(res.status).to.be.oneOf([303, 403]);
    expect((await userOf('ann@example.org')).reportPeriod).to.equal('off');
  });
});

describe('unsubscribe link of a report mail', () => {
  let user: UserDoc;
  beforeEach(async () => {
    user = await buildUser('ann@example.org');
    await User.updateOne({ _id: user._id }, { $set: { reportPeriod: 'daily', reportDue: NOW, reminderPeriod: 'hourly', reminderDue: NOW } });
  });

  it('shows a confirmation page on GET (changing nothing), and the POST without a session turns only that mail off', async () => {
    const path = `/account/reports/unsubscribe/${unsubscribeToken('report', user._id, config.secretKey, new Date())}`;
    const page = await webAgent().get(path);
    expect(page.status).to.equal(200);
    expect(page.text).to.include('Stop the email reports of your checks?');
    expect((await userOf('ann@example.org')).reportPeriod).to.equal('daily');
    const done = await webAgent().post(path).type('form').send('List-Unsubscribe=One-Click');
    expect(done.status).to.equal(200);
    expect(done.text).to.include('gets no more of the email reports');
    const after = await userOf('ann@example.org');
    expect([after.reportPeriod, after.reportDue, after.reminderPeriod]).to.deep.equal(['off', null, 'hourly']);
  });

  it('refuses a forged or mangled link with 404, and another kind signature', async () => {
    const token = unsubscribeToken('reminder', user._id, config.secretKey, new Date());
    for (const bad of [token.replace('reminder', 'report'), `${token}x`, 'nonsense', `${user._id}.reminder.9999999999.${'A'.repeat(43)}`]) {
      const res = await webAgent().post(`/account/reports/unsubscribe/${encodeURIComponent(bad)}`);
      expect(res.status, bad).to.equal(404);
      expect(res.text).to.include('This link is not valid');
    }
    expect((await userOf('ann@example.org')).reminderPeriod).to.equal('hourly');
  });

  it('answers 410 for a deleted account', async () => {
    await User.deleteOne({ _id: user._id });
    const res = await webAgent().get(`/account/reports/unsubscribe/${unsubscribeToken('report', user._id, config.secretKey, new Date())}`);
    expect(res.status).to.equal(410);
  });
});

/** The account page (server/pages/account/account-page.ts, sessions.ts; docs/web-app.md, "Account"): sessions, leaving projects, closing the account. */
import { expect } from 'chai';
import type supertest from 'supertest';
import { Membership } from '../../../shared/models/membership.js';
import { Project } from '../../../shared/models/project.js';
import { User } from '../../../shared/models/user.js';
import { buildProject } from '../../helpers/factories.js';
import { FACTOR_TRIES_PER_USER } from '../../../server/pages/kit/limits.js';
import { buildUser, csrfOf, join, PASSWORD, signIn, webAgent } from '../../helpers/web.js';

/** A new agent signed in as `email` from a browser named `device`. */
async function signedIn(email: string, device: string): Promise<supertest.Agent> {
  const agent = webAgent();
  agent.set('User-Agent', device);
  expect((await signIn(agent, email)).status).to.equal(303);
  return agent;
}

/** The session rows of the account page: `[id, device cell]`. */
function sessionsOf(html: string): [string, string][] {
  return [...html.matchAll(/<tr data-session="([^"]+)"[^>]*>\s*<td class="wrap">([^<]*)<\/td>/g)].map((m) => [m[1], m[2]]);
}

/** Whether the agent is still signed in. */
async function signedInStill(agent: supertest.Agent): Promise<boolean> {
  return (await agent.get('/projects/')).status === 200;
}

describe('account page: sessions', () => {
  beforeEach(() => buildUser('ann@example.org'));

  it('lists each session with its device, this one first, and signs out another one', async () => {
    const laptop = await signedIn('ann@example.org', 'Laptop Firefox');
    const phone = await signedIn('ann@example.org', 'Phone Safari');
    const page = await laptop.get('/account/');
    const rows = sessionsOf(page.text);
    expect(rows.map(([, device]) => device)).to.deep.equal(['Laptop Firefox (this session)', 'Phone Safari']);
    // The page names sessions by an HMAC: the session id (a bearer secret) is nowhere in it.
    const sid = /hc_session=s%3A([^.;]+)/.exec(String((await laptop.get('/account/')).headers['set-cookie']))?.[1];
    expect(sid).to.have.length.greaterThan(10);
    expect(page.text).not.to.contain(sid);
    const res = await laptop.post('/account/sessions/end').type('form').send({ _csrf: csrfOf(page.text), session: rows[1][0] });
    expect([res.status, res.headers.location]).to.deep.equal([303, '/account/']);
    expect(await signedInStill(phone)).to.equal(false);
    expect(await signedInStill(laptop)).to.equal(true);
    expect(sessionsOf((await laptop.get('/account/')).text).map(([, device]) => device)).to.deep.equal(['Laptop Firefox (this session)']);
  });

  it('signs out all other sessions at once, and lists no session signed out or from before a password change', async () => {
    const one = await signedIn('ann@example.org', 'One');
    const two = await signedIn('ann@example.org', 'Two');
    const three = await signedIn('ann@example.org', 'Three');
    const _csrf = csrfOf((await one.get('/account/')).text);
    await three.post('/signout/').type('form').send({ _csrf: csrfOf((await three.get('/account/')).text) });
    expect(sessionsOf((await one.get('/account/')).text)).to.have.length(2);
    await one.post('/account/sessions/end').type('form').send({ _csrf, others: 'yes' });
    expect([await signedInStill(one), await signedInStill(two)]).to.deep.equal([true, false]);
    const four = await signedIn('ann@example.org', 'Four');
    await one.post('/account/password').type('form').send({ _csrf, current: PASSWORD, password: 'another long password' });
    expect(await signedInStill(four)).to.equal(false);
    expect(sessionsOf((await one.get('/account/')).text).map(([, device]) => device)).to.deep.equal(['One (this session)']);
  });

  it('cannot sign out another user’s session', async () => {
    await buildUser('eve@example.org');
    const ann = await signedIn('ann@example.org', 'Ann');
    const annId = sessionsOf((await ann.get('/account/')).text)[0][0];
    const eve = await signedIn('eve@example.org', 'Eve');
    await eve.post('/account/sessions/end').type('form').send({ _csrf: csrfOf((await eve.get('/account/')).text), session: annId });
    expect(await signedInStill(ann)).to.equal(true);
  });
});

describe('account page: password tries', () => {
  it(`limits tries of the current password (change, close) per person (${FACTOR_TRIES_PER_USER} a minute)`, async () => {
    await buildUser('ann@example.org');
    const agent = await signedIn('ann@example.org', 'x');
    const _csrf = csrfOf((await agent.get('/account/')).text);
    for (let i = 0; i < FACTOR_TRIES_PER_USER; i += 1) {
      expect((await agent.post('/account/password').type('form').send({ _csrf, current: 'guess', password: 'a new long password' })).status).to.equal(400);
    }
    expect((await agent.post('/account/password').type('form').send({ _csrf, current: PASSWORD, password: 'a new long password' })).status).to.equal(429);
    expect((await agent.post('/account/close').type('form').send({ _csrf, password: PASSWORD })).status).to.equal(429);
    expect(await User.countDocuments({ email: 'ann@example.org' })).to.equal(1);
  });
});

describe('account page: leaving a project and closing the account', () => {
  it('lets a member without a second factor leave a project that requires one', async () => {
    const { project } = await buildProject({ name: 'Strict' });
    await join(project._id, await buildUser('own@example.org'), 'owner');
    await join(project._id, await buildUser('bob@example.org'), 'rw');
    await Project.updateOne({ _id: project._id }, { $set: { requireSecondFactor: true } });
    const member = await signedIn('bob@example.org', 'y');
    const left = await member.post(`/projects/${project._id}/leave`).type('form').send({ _csrf: csrfOf((await member.get('/account/')).text) });
    expect([left.status, left.headers.location]).to.deep.equal([303, '/projects/']);
    expect(await Membership.countDocuments({ projectId: project._id })).to.equal(1);
  });

  it('leaves a project, but never as its last owner', async () => {
    const { project } = await buildProject({ name: 'Backups' });
    const ann = await buildUser('ann@example.org');
    const bob = await buildUser('bob@example.org');
    await join(project._id, ann, 'owner');
    await join(project._id, bob, 'rw');
    const owner = await signedIn('ann@example.org', 'x');
    const last = await owner.post(`/projects/${project._id}/leave`).type('form').send({ _csrf: csrfOf((await owner.get('/account/')).text) });
    expect(last.status).to.equal(400);
    expect(last.text).to.contain('You are the last owner of “Backups”');
    const member = await signedIn('bob@example.org', 'y');
    const left = await member.post(`/projects/${project._id}/leave`).type('form').send({ _csrf: csrfOf((await member.get('/account/')).text) });
    expect([left.status, left.headers.location]).to.deep.equal([303, '/projects/']);
    expect(await Membership.countDocuments({ projectId: project._id })).to.equal(1);
    expect((await member.get(`/projects/${project._id}/`)).status).to.equal(404);
  });

  it('names the projects the user alone owns, and closes the account only with the password and, for those, the box ticked', async () => {
    const mine = await buildProject({ name: 'Mine alone' });
    const shared = await buildProject({ name: 'Shared' });
    const ann = await buildUser('ann@example.org');
    const bob = await buildUser('bob@example.org');
    await join(mine.project._id, ann, 'owner');
    await join(shared.project._id, ann, 'owner');
    await join(shared.project._id, bob, 'owner');
    const agent = await signedIn('ann@example.org', 'a');
    const other = await signedIn('ann@example.org', 'b');
    const page = await agent.get('/account/close');
    expect(page.text).to.match(/id="sole-projects">[\s\S]*Mine alone[\s\S]*<\/ul>/).and.not.match(/id="sole-projects">[^/]*Shared/);
    const _csrf = csrfOf(page.text);
    const wrong = await agent.post('/account/close').type('form').send({ _csrf, password: 'not it', delete_projects: 'yes' });
    const unticked = await agent.post('/account/close').type('form').send({ _csrf, password: PASSWORD });
    expect([wrong.status, unticked.status]).to.deep.equal([400, 400]);
    expect(unticked.text).to.contain('Tick the box to delete the projects only you own');
    expect(await User.countDocuments({ email: 'ann@example.org' })).to.equal(1);
    // A project left to the user alone after the page was shown stops the closing; nothing is deleted.
    const later = await buildProject({ name: 'Left to me later' });
    await join(later.project._id, ann, 'owner');
    const unnamed = await agent.post('/account/close').type('form').send({ _csrf, password: PASSWORD, delete_projects: 'yes', project: mine.project._id });
    expect(unnamed.status).to.equal(409);
    expect(await Project.exists({ _id: mine.project._id })).not.to.equal(null);
    const named = [mine.project._id, later.project._id];
    const closed = await agent.post('/account/close').type('form').send({ _csrf, password: PASSWORD, delete_projects: 'yes', project: named });
    expect(closed.status).to.equal(200);
    expect(closed.text).to.contain('is closed and signed out everywhere');
    expect(await User.countDocuments({ email: 'ann@example.org' })).to.equal(0);
    expect(await Project.exists({ _id: mine.project._id })).to.equal(null);
    expect(await Membership.find({ projectId: shared.project._id }).lean()).to.have.length(1);
    expect([await signedInStill(agent), await signedInStill(other)]).to.deep.equal([false, false]);
    expect((await signIn(webAgent(), 'ann@example.org')).status).to.equal(400);
  });
});

/** Second factors (server/pages/account/two-factor.ts, shared/services/second-factor.ts; docs/web-app.md, "Two-factor authentication"): TOTP, recovery codes, sudo mode, projects that require one. */
import { expect } from 'chai';
import type supertest from 'supertest';
import { generate } from 'otplib';
import { ApiKey } from '../../../shared/models/api-key.js';
import { Project } from '../../../shared/models/project.js';
import { User, type UserDoc } from '../../../shared/models/user.js';
import { FACTOR_TRIES_PER_USER } from '../../../server/pages/kit/limits.js';
import { buildProject } from '../../helpers/factories.js';
import { buildUser, csrfOf, join, PASSWORD, signIn, webAgent } from '../../helpers/web.js';

/** The code an app with `secret` shows `offsetS` seconds from now. */
const codeOf = (secret: string, offsetS = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetS });

/** Adds an authenticator app for the signed-in agent. @returns Its secret and the recovery codes shown. */
async function addApp(agent: supertest.Agent, name = 'Phone'): Promise<{ secret: string; codes: string[] }> {
  const page = await agent.get('/account/two-factor/totp');
  expect(page.status).to.equal(200);
  const secret = /id="totp-secret" class="wrap">([A-Z2-7]+)</.exec(page.text)?.[1] ?? '';
  expect(page.text).to.contain('<svg');
  const res = await agent.post('/account/two-factor/totp').type('form').send({ _csrf: csrfOf(page.text), name, code: await codeOf(secret) });
  expect(res.status).to.equal(200);
  return { secret, codes: [...res.text.matchAll(/<li><code>([a-z2-7]{5}-[a-z2-7]{5})<\/code><\/li>/g)].map((m) => m[1]) };
}

/** Signs in with the password, then posts `code` at the second step. @returns The second step's answer. */
async function signInWith(agent: supertest.Agent, email: string, code: string): Promise<supertest.Response> {
  const first = await signIn(agent, email);
  expect([first.status, first.headers.location]).to.deep.equal([303, '/signin/two-factor']);
  const step = await agent.get('/signin/two-factor');
  return agent.post('/signin/two-factor').type('form').send({ _csrf: csrfOf(step.text), code });
}

describe('second factors', () => {
  beforeEach(() => buildUser('ann@example.org'));

  it('adds an authenticator app with a code it shows, and gives ten recovery codes once', async () => {
    const agent = webAgent();
    await signIn(agent, 'ann@example.org');
    const page = await agent.get('/account/two-factor/totp');
    const wrong = await agent.post('/account/two-factor/totp').type('form').send({ _csrf: csrfOf(page.text), name: 'Phone', code: '000000' });
    expect(wrong.status).to.equal(400);
    expect(wrong.text).to.contain('that code is not right');
    const { codes } = await addApp(agent);
    expect(codes).to.have.length(10);
    const user = (await User.findOne({ email: 'ann@example.org' }).lean<UserDoc>())!;
    expect([user.totp.length, user.totp[0].name, user.recoveryCodes.length]).to.deep.equal([1, 'Phone', 10]);
    expect(JSON.stringify(user.recoveryCodes)).not.to.contain(codes[0]);
  });

  it('asks for the app’s code after the password, and refuses a wrong or replayed one', async () => {
    const setup = webAgent();
    await signIn(setup, 'ann@example.org');
    const { secret } = await addApp(setup);
    const agent = webAgent();
    const first = await signIn(agent, 'ann@example.org');
    expect(first.headers.location).to.equal('/signin/two-factor');
    expect((await agent.get('/projects/')).status).to.equal(303);
    const step = await agent.get('/signin/two-factor');
    const wrong = await agent.post('/signin/two-factor').type('form').send({ _csrf: csrfOf(step.text), code: '123456' });
    expect(wrong.status).to.equal(400);
    // The code of the next step (within the allowed drift): the one used to add the app is spent.
    const code = await codeOf(secret, 30);
    const ok = await agent.post('/signin/two-factor').type('form').send({ _csrf: csrfOf(step.text), code });
    expect([ok.status, ok.headers.location]).to.deep.equal([303, '/projects/']);
    expect((await agent.get('/projects/')).status).to.equal(200);
    const replay = await signInWith(webAgent(), 'ann@example.org', code);
    expect(replay.status).to.equal(400);
    expect(replay.text).to.contain('That code is not right, or has been used already.');
  });

  it('signs in once with each recovery code', async () => {
    const setup = webAgent();
    await signIn(setup, 'ann@example.org');
    const { codes } = await addApp(setup);
    expect((await signInWith(webAgent(), 'ann@example.org', codes[3].toUpperCase())).status).to.equal(303);
    expect((await signInWith(webAgent(), 'ann@example.org', codes[3])).status).to.equal(400);
    expect((await User.findOne({ email: 'ann@example.org' }).lean<UserDoc>())!.recoveryCodes).to.have.length(9);
  });

  it(`limits second-step tries per user (${FACTOR_TRIES_PER_USER} a minute)`, async () => {
    const setup = webAgent();
    await signIn(setup, 'ann@example.org');
    const { secret } = await addApp(setup);
    const agent = webAgent();
    await signIn(agent, 'ann@example.org');
    const _csrf = csrfOf((await agent.get('/signin/two-factor')).text);
    for (let i = 0; i < FACTOR_TRIES_PER_USER; i += 1) expect((await agent.post('/signin/two-factor').type('form').send({ _csrf, code: '000000' })).status).to.equal(400);
    const limited = await agent.post('/signin/two-factor').type('form').send({ _csrf, code: await codeOf(secret, 30) });
    expect(limited.status).to.equal(429);
  });

  it('asks again for the password or a factor before a sensitive change made more than 10 minutes after signing in', async () => {
    const { project } = await buildProject();
    await join(project._id, (await User.findOne({ email: 'ann@example.org' }).lean<UserDoc>())!, 'owner');
    let now = Date.now();
    const agent = webAgent({}, () => new Date(now));
    await signIn(agent, 'ann@example.org');
    const settings = await agent.get(`/projects/${project._id}/settings/`);
    now += 11 * 60_000;
    const keys = await agent.post(`/projects/${project._id}/keys/`).type('form').send({ _csrf: csrfOf(settings.text), name: 'ci', access: 'rw' });
    expect([keys.status, keys.headers.location]).to.deep.equal([303, `/account/confirm?next=${encodeURIComponent(`/projects/${project._id}/settings/`)}`]);
    expect(await ApiKey.countDocuments()).to.equal(0);
    const add = await agent.get('/account/two-factor/totp');
    expect(add.headers.location).to.equal(`/account/confirm?next=${encodeURIComponent('/account/two-factor/totp')}`);
    const confirm = await agent.get(add.headers.location);
    const wrong = await agent.post('/account/confirm').type('form').send({ _csrf: csrfOf(confirm.text), next: '/account/two-factor/totp', password: 'not it' });
    expect(wrong.status).to.equal(400);
    const right = await agent.post('/account/confirm').type('form').send({ _csrf: csrfOf(confirm.text), next: '/account/two-factor/totp', password: PASSWORD });
    expect(right.headers.location).to.equal('/account/two-factor/totp');
    expect((await agent.get('/account/two-factor/totp')).status).to.equal(200);
    expect((await agent.post(`/projects/${project._id}/keys/`).type('form').send({ _csrf: csrfOf(settings.text), name: 'ci', access: 'rw' })).status).to.equal(200);
  });

  it('lets an owner with a second factor require one of every member, and sends a member without one to add it', async () => {
    const { project } = await buildProject({ name: 'Payments' });
    const ann = (await User.findOne({ email: 'ann@example.org' }).lean<UserDoc>())!;
    await join(project._id, ann, 'owner');
    await join(project._id, await buildUser('bob@example.org'), 'rw');
    const owner = webAgent();
    await signIn(owner, 'ann@example.org');
    const _csrf = csrfOf((await owner.get(`/projects/${project._id}/settings/`)).text);
    const refused = await owner.post(`/projects/${project._id}/settings/second-factor`).type('form').send({ _csrf, require: 'yes' });
    expect(refused.status).to.equal(400);
    await addApp(owner);
    expect((await owner.post(`/projects/${project._id}/settings/second-factor`).type('form').send({ _csrf, require: 'yes' })).status).to.equal(303);
    expect((await Project.findById(project._id).lean())?.requireSecondFactor).to.equal(true);
    const member = webAgent();
    await signIn(member, 'bob@example.org');
    const opened = await member.get(`/projects/${project._id}/`);
    expect([opened.status, opened.headers.location]).to.deep.equal([303, '/account/two-factor/totp']);
    expect((await member.get('/account/two-factor/totp')).text).to.contain('asks every member for a second factor');
    await addApp(member);
    expect((await member.get(`/projects/${project._id}/`)).status).to.equal(200);
  });
});

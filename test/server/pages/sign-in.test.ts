/** Sign-in, sign-out and the session cookie (server/pages/account/account.ts, session.ts, limits.ts). */
import { expect } from 'chai';
import supertest from 'supertest';
import { ATTEMPTS_PER_EMAIL, ATTEMPTS_PER_IP } from '../../../server/pages/kit/limits.js';
import { createWebHandler } from '../../../server/app.js';
import { testContext } from '../../helpers/hooks.js';
import { buildUser, csrfOf, PASSWORD, signIn, tokenOf, webAgent } from '../../helpers/web.js';

describe('sign-in', () => {
  it('opens on the sign-in page; / sends a visitor there', async () => {
    const agent = webAgent();
    const root = await agent.get('/');
    expect([root.status, root.headers.location]).to.deep.equal([303, '/signin/']);
    const page = await agent.get('/signin/');
    expect(page.status).to.equal(200);
    expect(page.text).to.contain('<label for="email">Email address</label>');
    expect(page.headers['content-security-policy']).to.contain("default-src 'self'");
  });

  it('signs in with the right password into a cookie that is HttpOnly and SameSite=Lax, and / then opens the projects', async () => {
    await buildUser('ann@example.org');
    const agent = webAgent();
    const res = await signIn(agent, 'Ann@Example.org ', PASSWORD);
    expect([res.status, res.headers.location]).to.deep.equal([303, '/projects/']);
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).to.match(/hc_session=/).and.match(/HttpOnly/).and.match(/SameSite=Lax/);
    expect(cookie).not.to.match(/Secure/);
    expect((await agent.get('/')).headers.location).to.equal('/projects/');
    expect((await agent.get('/projects/')).text).to.contain('ann@example.org');
  });

  it('sets a Secure cookie when BASE_URL is https (the proxy in front says https)', async () => {
    const res = await webAgent({ baseUrl: 'https://hc.example.org', trustProxy: 1 }).get('/signin/').set('X-Forwarded-Proto', 'https');
    expect(String(res.headers['set-cookie'])).to.match(/hc_session=/).and.match(/; Secure/);
  });

  it('answers a wrong password and an unknown address with the same 400 page', async () => {
    await buildUser('ann@example.org');
    const wrong = await signIn(webAgent(), 'ann@example.org', 'not the password');
    const unknown = await signIn(webAgent(), 'bob@example.org', 'not the password');
    expect([wrong.status, unknown.status]).to.deep.equal([400, 400]);
    const message = (text: string) => /<p class="error"[^>]*>([^<]*)<\/p>/.exec(text)?.[1];
    expect(message(wrong.text)).to.equal('Wrong email address or password.');
    expect(message(unknown.text)).to.equal(message(wrong.text));
  });

  it(`refuses the ${ATTEMPTS_PER_EMAIL + 1}th attempt for one address within a minute with 429, even with the right password`, async () => {
    await buildUser('ann@example.org');
    for (let i = 0; i < ATTEMPTS_PER_EMAIL; i += 1) expect((await signIn(webAgent(), 'ann@example.org', 'wrong password')).status).to.equal(400);
    const res = await signIn(webAgent(), 'ann@example.org');
    expect(res.status).to.equal(429);
    expect(res.text).to.contain('Too many sign-in attempts');
  });

  it('limits attempts per client IP across addresses', async () => {
    const agent = webAgent();
    let last = 0;
    for (let i = 0; i < 21; i += 1) last = (await signIn(agent, `user${i}@example.org`, 'wrong password')).status;
    expect(last).to.equal(429);
  });

  it(`with the service's own settings, a forged X-Forwarded-For per attempt does not escape the per-client limit (${ATTEMPTS_PER_IP} a minute)`, async () => {
    const { redis, queues } = testContext();
    const agent = supertest.agent(createWebHandler({ clock: () => new Date(), redis, queues }));
    const statuses: number[] = [];
    for (let i = 0; i <= ATTEMPTS_PER_IP; i += 1) {
      const _csrf = await tokenOf(agent);
      const res = await agent.post('/signin/').set('X-Forwarded-For', `198.51.100.${i}`).type('form').send({ _csrf, email: `user${i}@example.org`, password: 'wrong password' });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, ATTEMPTS_PER_IP).every((status) => status === 400)).to.equal(true);
    expect(statuses[ATTEMPTS_PER_IP]).to.equal(429);
  });

  it('behind one trusted proxy, counts each client by the address the proxy added', async () => {
    const agent = webAgent({ trustProxy: 1 });
    for (let i = 0; i < ATTEMPTS_PER_IP; i += 1) {
      const _csrf = await tokenOf(agent);
      await agent.post('/signin/').set('X-Forwarded-For', `198.51.100.${i}, 203.0.113.9`).type('form').send({ _csrf, email: `user${i}@example.org`, password: 'x' });
    }
    const _csrf = await tokenOf(agent);
    const same = await agent.post('/signin/').set('X-Forwarded-For', '203.0.113.9').type('form').send({ _csrf, email: 'last@example.org', password: 'x' });
    const other = await agent.post('/signin/').set('X-Forwarded-For', '203.0.113.10').type('form').send({ _csrf, email: 'last@example.org', password: 'x' });
    expect([same.status, other.status]).to.deep.equal([429, 400]);
  });

  it('refuses a POST without the CSRF token, or with a wrong one, with 403', async () => {
    await buildUser('ann@example.org');
    const agent = webAgent();
    await tokenOf(agent);
    const missing = await agent.post('/signin/').type('form').send({ email: 'ann@example.org', password: PASSWORD });
    const wrong = await agent.post('/signin/').type('form').send({ _csrf: 'x'.repeat(40), email: 'ann@example.org', password: PASSWORD });
    expect([missing.status, wrong.status]).to.deep.equal([403, 403]);
    expect(wrong.text).to.contain('This form has expired or did not come from this site');
  });

  it('signs out: the old cookie opens nothing', async () => {
    await buildUser('ann@example.org');
    const agent = webAgent();
    await signIn(agent, 'ann@example.org');
    const _csrf = csrfOf((await agent.get('/projects/')).text);
    expect((await agent.post('/signout/').type('form').send({ _csrf })).headers.location).to.equal('/signin/');
    const after = await agent.get('/projects/');
    expect([after.status, after.headers.location]).to.deep.equal([303, '/signin/?next=%2Fprojects%2F']);
  });

  it('signs everyone out when SECRET_KEY changes', async () => {
    await buildUser('ann@example.org');
    const agent = webAgent({ secretKey: 'first-secret' });
    const res = await signIn(agent, 'ann@example.org');
    const cookie = String(res.headers['set-cookie']).split(';')[0];
    const same = await webAgent({ secretKey: 'first-secret' }).get('/projects/').set('Cookie', cookie);
    const other = await webAgent({ secretKey: 'second-secret' }).get('/projects/').set('Cookie', cookie);
    expect(same.status).to.equal(200);
    expect([other.status, other.headers.location]).to.deep.equal([303, '/signin/?next=%2Fprojects%2F']);
  });

  it('goes back to a local `next` only', async () => {
    await buildUser('ann@example.org');
    const agent = webAgent();
    const _csrf = await tokenOf(agent);
    const res = await agent.post('/signin/').type('form').send({ _csrf, email: 'ann@example.org', password: PASSWORD, next: '//evil.example/' });
    expect(res.headers.location).to.equal('/projects/');
  });
});

/**
 * A password-protected status page (server/status/access.ts and routes.ts; docs/status-pages.md): the form, a wrong and a right
 * password, the rate limit, the feeds refused without the visit's cookie, and a new password ending old visits.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import argon2 from 'argon2';
import type supertest from 'supertest';
import { StatusPage, type StatusPageDoc } from '../../../shared/models/status-page.js';
import { announceChanges } from '../../../shared/status-pages/changes.js';
import { PASSWORD_TRIES } from '../../../server/status/access.js';
import { buildCheck, buildProject } from '../../helpers/factories.js';
import { testContext } from '../../helpers/hooks.js';
import { waitFor } from '../../helpers/poll.js';
import { buildStatusPage, visitor } from './support.js';

const SECRET = 'open sesame';

/** A published password page at `acme` with one component. */
async function protectedPage(): Promise<StatusPageDoc> {
  const project = await buildProject();
  const check = await buildCheck(project, { status: 'up' });
  return buildStatusPage(project, { Jobs: [[check, 'Import']] }, { visibility: 'password', passwordHash: await argon2.hash(SECRET) });
}

/** Posts the password form. */
function sendPassword(agent: supertest.Agent, password: string) {
  return agent.post('/status/acme/').type('form').send({ password });
}

describe('a password-protected status page', () => {
  it('answers 403 with the password form and nothing of the page without the cookie', async () => {
    await protectedPage();
    const res = await visitor().get('/status/acme/');
    expect(res.status).to.equal(403);
    expect(res.text).to.contain('This status page is protected').and.contain('<form method="post" action="/status/acme/"');
    expect(res.text).not.to.contain('Acme services').and.not.contain('Import');
  });

  it('refuses its JSON, Atom feed, badge and logo with 403 without the cookie', async () => {
    await protectedPage();
    for (const path of ['status.json', 'feed.atom', 'badge.svg', 'logo']) {
      const res = await visitor().get(`/status/acme/${path}`);
      expect(res.status, path).to.equal(403);
      expect(res.text, path).not.to.contain('Import');
    }
  });

  it('answers a wrong password with 403 and a message beside the field, and sets no cookie', async () => {
    await protectedPage();
    const res = await sendPassword(visitor(), 'guess');
    expect(res.status).to.equal(403);
    expect(res.text).to.contain('Wrong password: try again.').and.contain('aria-invalid="true"');
    expect(res.headers['set-cookie']).to.equal(undefined);
  });

  it('answers the right password with 303 and a cookie, then shows the page, privately', async () => {
    await protectedPage();
    const agent = visitor();
    const res = await sendPassword(agent, SECRET);
    expect(res.status).to.equal(303);
    expect(res.headers.location).to.equal('/status/acme/');
    expect(String(res.headers['set-cookie'])).to.match(/^hc_status_\w+=[\w-]+; Max-Age=\d+; Path=\/status\/acme\/; HttpOnly; SameSite=Lax/);
    const page = await agent.get('/status/acme/');
    expect(page.status).to.equal(200);
    expect(page.text).to.contain('Acme services').and.contain('Import');
    for (const path of ['', 'status.json', 'feed.atom']) expect((await agent.get(`/status/acme/${path}`)).headers['cache-control'], path).to.match(/^private\b/);
  });

  it(`refuses the attempt after ${PASSWORD_TRIES} within a minute with 429, even the right password`, async () => {
    await protectedPage();
    const agent = visitor();
    for (let n = 0; n < PASSWORD_TRIES; n++) expect((await sendPassword(agent, `guess ${n}`)).status).to.equal(403);
    const refused = await sendPassword(agent, SECRET);
    expect(refused.status).to.equal(429);
    expect(refused.text).to.contain('Too many attempts');
    expect(refused.headers['set-cookie']).to.equal(undefined);
  });

  it('ends the visit of a cookie holder when the password changes', async () => {
    const page = await protectedPage();
    const agent = visitor();
    await sendPassword(agent, SECRET);
    expect((await agent.get('/status/acme/')).status).to.equal(200);
    // As the owners' editor does: a new hash, then word on the change stream.
    await StatusPage.updateOne({ _id: page._id }, { $set: { passwordHash: await argon2.hash('new secret') }, $inc: { rev: 1 } });
    await announceChanges(testContext().redis, [{ kind: 'page', id: page._id }]);
    await waitFor('the old cookie refused', async () => (await agent.get('/status/acme/')).status === 403);
    expect((await visitor().get('/status/acme/')).status).to.equal(403);
  });

  it('answers a password form that is not UTF-8 with 403 and one too large with 413, never a 500', async () => {
    await protectedPage();
    const garbled = await visitor().post('/status/acme/').type('form').send('password=%ff%fe');
    expect(garbled.status).to.equal(403);
    expect(garbled.text).to.contain('Wrong password');
    const large = await visitor().post('/status/acme/').type('form').send(`password=${'x'.repeat(8192)}`);
    expect(large.status).to.equal(413);
  });

  it("does not open another page with the same password with one page's cookie", async () => {
    const first = await protectedPage();
    await StatusPage.create({ ...first, _id: randomUUID(), slug: 'other', title: 'Other' });
    const granted = await sendPassword(visitor(), SECRET);
    const cookie = String((granted.headers['set-cookie'] as unknown as string[])[0]).split(';')[0];
    expect((await visitor().get('/status/other/').set('Cookie', cookie)).status).to.equal(403);
    expect((await visitor().get('/status/acme/').set('Cookie', cookie)).status).to.equal(200);
  });
});

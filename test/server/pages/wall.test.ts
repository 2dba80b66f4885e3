/**
 * The wall display (server/pages/wall/wall.ts, wall-grant.ts): a pasted read-only key opens one project's checks list and
 * check pages as read-only, naming checks by `unique_key` and never showing a UUID or a ping URL; a read-write key,
 * a wrong key, writes, other pages and other projects are refused, and revoking the key ends it.
 */
import { expect } from 'chai';
import type supertest from 'supertest';
import { createApiKey, revokeApiKey } from '../../../shared/services/api-keys.js';
import { uniqueKeyOf } from '../../../shared/domain/ids.js';
import { buildCheck, buildProject, type TestProject } from '../../helpers/factories.js';
import { buildUser, csrfOf, join, signIn, webAgent } from '../../helpers/web.js';

/**
 * Pastes `key` into the wall form of a new agent's session (or `agent`'s).
 * @returns The answer and the CSRF token of the session after it (a new one when the wall opened).
 */
async function paste(key: string, agent = webAgent()): Promise<{ agent: supertest.Agent; res: supertest.Response; _csrf: string }> {
  const _csrf = csrfOf((await agent.get('/wall/')).text);
  const res = await agent.post('/wall/').type('form').send({ _csrf, key });
  return { agent, res, _csrf: res.status === 303 ? csrfOf((await agent.get(String(res.headers.location))).text) : _csrf };
}

/** A project with one check named `backup`. */
async function projectWithCheck(): Promise<{ built: TestProject; base: string; checkId: string }> {
  const built = await buildProject({ name: 'Wall project' });
  const check = await buildCheck(built, { name: 'backup' });
  return { built, base: `/projects/${built.project._id}/`, checkId: check._id };
}

describe('wall display', () => {
  it("accepts the project's read-only key and a named read-only key, and shows the checks list and a check page read-only", async () => {
    const { built, base, checkId } = await projectWithCheck();
    const named = await createApiKey(built.project._id, 'lobby screen', true, new Date());
    for (const key of [built.apiKeyReadonly, named.key]) {
      const { agent, res } = await paste(key);
      expect(res.status).to.equal(303);
      expect(res.headers.location).to.equal(base);
      const list = await agent.get(base);
      expect(list.status).to.equal(200);
      expect(list.text).to.contain('backup').and.contain('Wall display: read-only').and.contain('Leave the wall display');
      expect(list.text).not.to.contain('New check').and.not.to.contain('/integrations/').and.not.to.contain('/members/').and.not.to.contain('/settings/').and.not.to.contain('/timeline/');
      const page = await agent.get(`${base}checks/${uniqueKeyOf(checkId)}/`);
      expect(page.status).to.equal(200);
      expect(page.text).to.contain('backup').and.not.to.contain('/ping/').and.not.to.contain(built.pingKey).and.not.to.contain('edit/');
      expect((await agent.get(`${base}checks.json`)).status).to.equal(200);
    }
  });

  it('names checks by unique_key: no UUID and no ping URL in its list, check pages or live JSON; members keep UUID addresses', async () => {
    const { built, base, checkId } = await projectWithCheck();
    const parent = await buildCheck(built, { name: '', slug: 'nightly' });
    const child = await buildCheck(built, { name: 'child', slug: 'child', dependsOn: [parent._id] });
    const uuids = [checkId, parent._id, child._id];
    const keys = uuids.map(uniqueKeyOf);
    const { agent } = await paste(built.apiKeyReadonly);
    const list = await agent.get(base);
    for (const key of keys) expect(list.text).to.contain(`<a href="${base}checks/${key}/">`).and.contain(`data-check="${key}"`);
    const pages = await Promise.all(keys.map((key) => agent.get(`${base}checks/${key}/`)));
    expect(pages.map((page) => page.status)).to.deep.equal([200, 200, 200]);
    expect(pages[2]?.text).to.contain('id="rule-depends_on">unnamed<');
    const live = await agent.get(`${base}checks.json?ids=${[...keys, checkId].join(',')}`);
    expect((live.body as { checks: { id: string }[] }).checks.map((c) => c.id)).to.have.members(keys);
    for (const [i, res] of [list, ...pages, live].entries()) {
      for (const uuid of uuids) expect(res.text, `answer ${i}`).not.to.contain(uuid);
      expect(res.text, `answer ${i}`).not.to.contain('/ping/').and.not.to.contain(built.pingKey);
    }
    // A UUID address, and a check's events, log and pings (ping bodies), stay closed to a wall.
    for (const path of [`${base}checks/${checkId}/`, `${base}checks/${keys[0]}/events`, `${base}checks/${keys[0]}/log/`, `${base}checks/${keys[0]}/pings/1/`]) {
      expect((await agent.get(path)).status, path).to.equal(403);
    }

    await join(built.project._id, await buildUser('reader@example.org'), 'ro');
    const member = webAgent();
    await signIn(member, 'reader@example.org');
    expect((await member.get(base)).text).to.contain(`<a href="${base}checks/${checkId}/">`).and.contain(`data-check="${checkId}"`);
    expect((await member.get(`${base}checks/${checkId}/`)).status).to.equal(200);
    expect((await member.get(`${base}checks/${keys[0]}/`)).status).to.equal(404);
    const memberLive = await member.get(`${base}checks.json?ids=${checkId}`);
    expect((memberLive.body as { checks: { id: string }[] }).checks.map((c) => c.id)).to.deep.equal([checkId]);
  });

  it('refuses a read-write key with a message and keeps nothing', async () => {
    const { built, base } = await projectWithCheck();
    const named = await createApiKey(built.project._id, 'deploy', false, new Date());
    for (const key of [built.apiKey, named.key]) {
      const { agent, res } = await paste(key);
      expect(res.status).to.equal(400);
      expect(res.text).to.contain('This is a read-write key: a wall display must not hold a key that can change checks.');
      const list = await agent.get(base);
      expect([list.status, list.headers.location]).to.deep.equal([303, `/signin/?next=${encodeURIComponent(base)}`]);
    }
  });

  it('answers a wrong, empty or overlong key with a message beside the field', async () => {
    await projectWithCheck();
    const wrong = await paste('hcr_abcdefghijklmnopqrstuvwxyz01');
    expect(wrong.res.status).to.equal(400);
    expect(wrong.res.text).to.contain('id="key-error">No project has this key');
    expect((await paste('')).res.text).to.contain('Paste a read-only API key of the project');
    expect((await paste('x'.repeat(5000))).res.status).to.equal(400);
  });

  it('refuses write routes (403), the project’s other pages (403), other projects and account pages (sign-in)', async () => {
    const { built, base, checkId } = await projectWithCheck();
    const other = await projectWithCheck();
    const { agent, _csrf } = await paste(built.apiKeyReadonly);
    for (const path of [`${base}checks/${checkId}/pause`, `${base}checks/${checkId}/delete`, `${base}checks/`, `${base}settings/name`]) {
      const res = await agent.post(path).type('form').send({ _csrf, name: 'x' });
      expect(res.status, path).to.equal(403);
      expect(res.text, path).to.contain('A wall display only shows the checks');
    }
    for (const path of [`${base}checks/new/`, `${base}checks/${checkId}/edit/`, `${base}integrations/`, `${base}members/`, `${base}settings/`, `${base}maintenance/`]) {
      expect((await agent.get(path)).status, path).to.equal(403);
    }
    for (const path of [other.base, '/account/', '/projects/']) {
      const res = await agent.get(path);
      expect([res.status, res.headers.location], path).to.deep.equal([303, `/signin/?next=${encodeURIComponent(path)}`]);
    }
  });

  it('ends when its key is revoked, and when the wall is left', async () => {
    const { built, base } = await projectWithCheck();
    const named = await createApiKey(built.project._id, 'lobby screen', true, new Date());
    const { agent } = await paste(named.key);
    expect((await agent.get(base)).status).to.equal(200);
    await revokeApiKey(built.project._id, named.doc._id);
    const revoked = await agent.get(base);
    expect(revoked.status).to.equal(401);
    expect(revoked.text).to.contain('The key of this wall display no longer works');
    expect((await agent.get(base)).status).to.equal(303);

    const { agent: left, _csrf } = await paste(built.apiKeyReadonly);
    expect((await left.post('/wall/leave').type('form').send({ _csrf })).headers.location).to.equal('/wall/');
    expect((await left.get(base)).status).to.equal(303);
  });

  it("opens from an owner's signed link of a named read-only key, which a forged signature or a revoked key does not", async () => {
    const { built, base } = await projectWithCheck();
    const readOnly = await createApiKey(built.project._id, 'lobby screen', true, new Date());
    const readWrite = await createApiKey(built.project._id, 'deploy', false, new Date());
    await join(built.project._id, await buildUser('owner@example.org'), 'owner');
    await join(built.project._id, await buildUser('viewer@example.org'), 'ro');
    const owner = webAgent();
    await signIn(owner, 'owner@example.org');
    const settings = await owner.get(`${base}settings/`);
    expect(settings.text).to.contain(`href="${base}keys/${readOnly.doc._id}/wall-link"`).and.not.to.contain(`keys/${readWrite.doc._id}/wall-link`);
    const page = await owner.get(`${base}keys/${readOnly.doc._id}/wall-link`);
    const link = /id="wall-link">([^<]+)</.exec(page.text)?.[1] ?? expect.fail('no link on the page');
    const path = new URL(link).pathname;
    expect(path).to.match(new RegExp(`^/wall/${readOnly.doc._id}\\.[A-Za-z0-9_-]{43}$`));
    expect((await owner.get(`${base}keys/${readWrite.doc._id}/wall-link`)).status).to.equal(404);
    const viewer = webAgent();
    await signIn(viewer, 'viewer@example.org');
    expect((await viewer.get(`${base}keys/${readOnly.doc._id}/wall-link`)).status).to.equal(403);

    const wall = webAgent();
    expect((await wall.get(path)).headers.location).to.equal(base);
    expect((await wall.get(base)).text).to.contain('Wall display: read-only');
    const forged = `${path.slice(0, -2)}${path.endsWith('AA') ? 'BB' : 'AA'}`;
    const other = await projectWithCheck();
    const otherKey = await createApiKey(other.built.project._id, 'other', true, new Date());
    for (const bad of [forged, `/wall/${readWrite.doc._id}.${path.split('.')[1]}`, `/wall/${otherKey.doc._id}.${path.split('.')[1]}`, '/wall/nonsense']) {
      const res = await webAgent().get(bad);
      expect(res.status, bad).to.equal(404);
    }
    await revokeApiKey(built.project._id, readOnly.doc._id);
    expect((await wall.get(base)).status).to.equal(401);
    expect((await webAgent().get(path)).status).to.equal(404);
  });
});

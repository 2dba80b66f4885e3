/**
 * The project settings page (server/pages/projects.ts, views/settings.eta): rotating the ping key (read-write and
 * owners, with CSRF; slug ping URLs change and the old key no longer pings), how many checks of the limit are used,
 * and the Prometheus metrics URL with a read-only key made on the page.
 */
import { expect } from 'chai';
import type supertest from 'supertest';
import { Project } from '../../../shared/models/project.js';
import { Ping } from '../../../shared/models/ping.js';
import { buildCheck, buildProject, http, type TestProject } from '../../helpers/factories.js';
import { buildUser, csrfOf, join, signIn, webAgent } from '../../helpers/web.js';

/** A project with a member of `role` signed in, and the settings page's path and CSRF token. */
async function setUp(role: 'owner' | 'rw' | 'ro', input: { checkLimit?: number } = {}): Promise<{ built: TestProject; agent: supertest.Agent; _csrf: string; path: string }> {
  const built = await buildProject(input);
  await join(built.project._id, await buildUser(`${role}@example.org`), role);
  const agent = webAgent();
  await signIn(agent, `${role}@example.org`);
  const path = `/projects/${built.project._id}/settings/`;
  return { built, agent, _csrf: csrfOf((await agent.get(path)).text), path };
}

describe('project settings: ping key, check count, metrics URL', () => {
  it('rotates the ping key with a warning: the slug URL changes and the old key no longer pings', async () => {
    const { built, agent, _csrf, path } = await setUp('rw');
    const check = await buildCheck(built, { name: 'backup', slug: 'backup' });
    const page = await agent.get(path);
    expect(page.text).to.contain('id="rotate-warning"').and.contain('changes every slug ping URL').and.contain('id="rotate-ping-key"');
    expect((await http().get(`/ping/${built.pingKey}/backup`)).status).to.equal(200);
    const res = await agent.post(`${path}ping-key`).type('form').send({ _csrf });
    expect(res.status).to.equal(303);
    const key = (await Project.findById(built.project._id).lean())?.pingKey ?? '';
    expect(key).to.have.length(22).and.not.equal(built.pingKey);
    expect((await agent.get(path)).text).to.contain(`/ping/<span id="ping-key">${key}</span>/&lt;slug&gt;`).and.not.contain(built.pingKey);
    expect((await http().get(`/ping/${built.pingKey}/backup`)).status).to.equal(404);
    expect((await http().get(`/ping/${key}/backup`)).status).to.equal(200);
    expect(await Ping.countDocuments({ checkId: check._id })).to.equal(2);
  });

  it('refuses to rotate for a read-only member or without the CSRF token', async () => {
    const { built, agent, _csrf, path } = await setUp('ro');
    expect((await agent.get(path)).text).to.not.contain('id="rotate-ping-key"');
    expect((await agent.post(`${path}ping-key`).type('form').send({ _csrf })).status).to.equal(403);
    const rw = await setUp('rw');
    expect((await rw.agent.post(`${rw.path}ping-key`).type('form').send({})).status).to.equal(403);
    for (const p of [built, rw.built]) expect((await Project.findById(p.project._id).lean())?.pingKey).to.equal(p.pingKey);
  });

  it('shows "N of M checks" and says when the limit is near or reached', async () => {
    const { built, agent, path } = await setUp('ro', { checkLimit: 3 });
    expect((await agent.get(path)).text).to.contain('<p id="check-count">0 of 3 checks.</p>');
    await buildCheck(built);
    expect((await agent.get(path)).text).to.contain('<p id="check-count">1 of 3 checks: near the limit.</p>');
    await buildCheck(built);
    await buildCheck(built);
    expect((await agent.get(path)).text).to.contain('<p id="check-count">3 of 3 checks: the limit is reached, a new check cannot be added.</p>');
  });

  it('shows the metrics URL, and with a read-only key made on the page the full URL, which serves the metrics', async () => {
    const { built, agent, _csrf, path } = await setUp('owner');
    await buildCheck(built, { name: 'nightly' });
    const metrics = `http://localhost:8000/projects/${built.project._id}/metrics/`;
    expect((await agent.get(path)).text).to.contain(`<code class="wrap" id="metrics-url">${metrics}&lt;read-only API key&gt;</code>`);
    const made = await agent.post(`/projects/${built.project._id}/keys/`).type('form').send({ _csrf, name: 'Prometheus', access: 'ro' });
    expect(made.status).to.equal(200);
    const url = /id="metrics-url">([^<]+)</.exec(made.text)?.[1] ?? '';
    expect(url).to.match(new RegExp(`^${metrics}hcr_[-\\w]{28}$`));
    const served = await http().get(new URL(url).pathname);
    expect(served.status).to.equal(200);
    expect(served.text).to.contain('name="nightly"');
    const rw = await agent.post(`/projects/${built.project._id}/keys/`).type('form').send({ _csrf, name: 'ci', access: 'rw' });
    expect(rw.text).to.contain('&lt;read-only API key&gt;');
  });
});

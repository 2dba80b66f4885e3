/** Projects and roles (server/pages/members/projects.ts, guard.ts): owner, read-write and read-only, 403 and 404 pages. */
import { expect } from 'chai';
import type supertest from 'supertest';
import { Project } from '../../../shared/models/project.js';
import { Membership } from '../../../shared/models/membership.js';
import { Check } from '../../../shared/models/check.js';
import { buildCheck, buildProject } from '../../helpers/factories.js';
import { buildUser, csrfOf, join, signIn, webAgent } from '../../helpers/web.js';

/** A signed-in agent of a new user with `role` in the project, and its CSRF token. */
async function member(projectId: string, email: string, role: 'owner' | 'rw' | 'ro'): Promise<{ agent: supertest.Agent; csrf: string }> {
  const user = await buildUser(email);
  await join(projectId, user, role);
  const agent = webAgent();
  await signIn(agent, email);
  return { agent, csrf: csrfOf((await agent.get('/projects/')).text) };
}

describe('projects and roles', () => {
  it('creates a project whose owner is its creator, listed on the project list', async () => {
    await buildUser('ann@example.org');
    const agent = webAgent();
    await signIn(agent, 'ann@example.org');
    const _csrf = csrfOf((await agent.get('/projects/')).text);
    const res = await agent.post('/projects/').type('form').send({ _csrf, name: 'Backups' });
    const project = await Project.findOne({ name: 'Backups' }).lean();
    expect(res.headers.location).to.equal(`/projects/${project?._id}/`);
    expect(await Membership.findOne({ projectId: project?._id }).lean()).to.include({ role: 'owner' });
    expect((await agent.get('/projects/')).text).to.contain('Backups');
  });

  it('refuses an empty project name beside the field', async () => {
    await buildUser('ann@example.org');
    const agent = webAgent();
    await signIn(agent, 'ann@example.org');
    const _csrf = csrfOf((await agent.get('/projects/')).text);
    const res = await agent.post('/projects/').type('form').send({ _csrf, name: '  ' });
    expect(res.status).to.equal(400);
    expect(res.text).to.contain('id="project-name-error">a project needs a name of 1 to 100 characters');
    expect(await Project.countDocuments()).to.equal(0);
  });

  it('lets the owner rename the project, and refuses a read-write or read-only member with 403', async () => {
    const { project } = await buildProject({ name: 'old' });
    const owner = await member(project._id, 'own@example.org', 'owner');
    const rw = await member(project._id, 'rw@example.org', 'rw');
    const ro = await member(project._id, 'ro@example.org', 'ro');
    const path = `/projects/${project._id}/settings/name`;
    for (const who of [rw, ro]) {
      const res = await who.agent.post(path).type('form').send({ _csrf: who.csrf, name: 'taken over' });
      expect(res.status).to.equal(403);
      expect(res.text).to.match(/does not allow this/);
    }
    expect((await owner.agent.post(path).type('form').send({ _csrf: owner.csrf, name: 'new' })).status).to.equal(303);
    expect((await Project.findById(project._id).lean())?.name).to.equal('new');
  });

  it('shows a read-only member the checks without edit controls, and refuses every write with 403', async () => {
    const built = await buildProject();
    const { project } = built;
    const check = await buildCheck(built, { name: 'nightly' });
    const ro = await member(project._id, 'ro@example.org', 'ro');
    const list = await ro.agent.get(`/projects/${project._id}/`);
    expect(list.status).to.equal(200);
    expect(list.text).to.contain('nightly').and.not.contain('New check');
    const page = await ro.agent.get(`/projects/${project._id}/checks/${check._id}/`);
    expect(page.text).not.to.contain('/edit/').and.not.contain(check._id + '/pause').and.not.contain('/ping/');
    const writes = [
      ro.agent.get(`/projects/${project._id}/checks/new/`),
      ro.agent.post(`/projects/${project._id}/checks/`).type('form').send({ _csrf: ro.csrf, name: 'x', timeout: '1', timeout_unit: '3600', grace: '1', grace_unit: '3600' }),
      ro.agent.post(`/projects/${project._id}/checks/${check._id}/pause`).type('form').send({ _csrf: ro.csrf }),
      ro.agent.post(`/projects/${project._id}/checks/${check._id}/delete`).type('form').send({ _csrf: ro.csrf }),
      ro.agent.post(`/projects/${project._id}/keys/`).type('form').send({ _csrf: ro.csrf, name: 'mine' }),
      ro.agent.post(`/projects/${project._id}/members/invite`).type('form').send({ _csrf: ro.csrf, email: 'x@example.org', role: 'owner' }),
    ];
    for (const res of await Promise.all(writes)) expect(res.status).to.equal(403);
    expect(await Check.findById(check._id).lean()).to.include({ status: 'new', name: 'nightly' });
    expect(await Check.countDocuments()).to.equal(1);
  });

  it('answers a non-member and a deleted project with the 404 page', async () => {
    const { project } = await buildProject();
    const owner = await member(project._id, 'own@example.org', 'owner');
    const stranger = await member((await buildProject()).project._id, 'x@example.org', 'owner');
    expect((await stranger.agent.get(`/projects/${project._id}/`)).status).to.equal(404);
    const deleted = await owner.agent.post(`/projects/${project._id}/delete`).type('form').send({ _csrf: owner.csrf, confirm: project.name });
    expect(deleted.headers.location).to.equal('/projects/');
    const stale = await owner.agent.get(`/projects/${project._id}/settings/`);
    expect(stale.status).to.equal(404);
    expect(stale.text).to.contain('No such project: it may have been deleted');
  });

  it('deletes a project only when its name is typed', async () => {
    const { project } = await buildProject({ name: 'keep me' });
    const owner = await member(project._id, 'own@example.org', 'owner');
    const res = await owner.agent.post(`/projects/${project._id}/delete`).type('form').send({ _csrf: owner.csrf, confirm: 'keep' });
    expect(res.status).to.equal(400);
    expect(await Project.countDocuments({ _id: project._id })).to.equal(1);
  });

  it('sends a visitor who is not signed in to the sign-in page', async () => {
    const { project } = await buildProject();
    const res = await webAgent().get(`/projects/${project._id}/`);
    expect([res.status, res.headers.location]).to.deep.equal([303, `/signin/?next=${encodeURIComponent(`/projects/${project._id}/`)}`]);
  });
});

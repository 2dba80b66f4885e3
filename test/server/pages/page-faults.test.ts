/**
 * Faults of the web app found on a walk through it, each fixed: the wall's form for someone signed in, error pages
 * inside a project keeping its navigation, an unnamed check named "unnamed" (never by its UUID), and confirmation steps
 * before copying a check and removing a member (server/pages/kit/confirm-step.ts): a GET or a POST without `confirm=yes`
 * changes nothing.
 */
import { expect } from 'chai';
import { Check } from '../../../shared/models/check.js';
import { Membership } from '../../../shared/models/membership.js';
import { buildCheck, buildProject } from '../../helpers/factories.js';
import { buildUser, csrfOf, join, signIn, webAgent } from '../../helpers/web.js';

/** A project with an owner signed in, a read-only member, and one check. */
async function setUp(role: 'owner' | 'ro' = 'owner') {
  const built = await buildProject({ name: 'Faults' });
  const user = await buildUser(`${role}@example.org`);
  await join(built.project._id, user, role);
  const other = await buildUser('other@example.org');
  await join(built.project._id, other, 'ro');
  const agent = webAgent();
  await signIn(agent, user.email);
  const check = await buildCheck(built, { name: 'backup', tags: 'prod' });
  const base = `/projects/${built.project._id}/`;
  const one = `${base}checks/${check._id}/`;
  const _csrf = csrfOf((await agent.get(base)).text);
  return { built, user, other, agent, check, base, one, _csrf };
}

/** The project's navigation bar, as views/layout.eta draws it. */
const PROJECT_NAV = '<nav class="tabs" aria-label="Project">';

describe('web app faults', () => {
  it('tells a signed-in user on /wall/ where their projects are, not to sign in', async () => {
    const { agent, user } = await setUp();
    const page = (await agent.get('/wall/')).text;
    expect(page).to.contain(`You are signed in as ${user.email}`).and.contain('<a href="/projects/">your projects</a>');
    expect(page).not.to.contain('Sign in to change checks').and.not.to.contain('href="/signin/"');
    expect((await webAgent().get('/wall/')).text).to.contain('<a href="/signin/">Sign in</a> to change checks.');
  });

  it("keeps the project's navigation on an error page inside the project: unknown check, unknown page, a role refused", async () => {
    const { agent, base } = await setUp('ro');
    for (const path of [`${base}checks/00000000-0000-4000-8000-000000000000/`, `${base}no-such-page/`, `${base}checks/new/`]) {
      const res = await agent.get(path).set('accept', 'text/html');
      expect(res.status, path).to.be.oneOf([403, 404]);
      expect(res.text, path).to.contain('class="error" role="alert"').and.contain(PROJECT_NAV).and.contain('<strong class="project-name">Faults</strong>');
    }
    const outside = await agent.get('/projects/00000000-0000-4000-8000-000000000000/').set('accept', 'text/html');
    expect(outside.status).to.equal(404);
    expect(outside.text).not.to.contain(PROJECT_NAV);
  });

  it('names an unnamed check "unnamed" on the timeline, never by its UUID', async () => {
    const { built, agent, base } = await setUp();
    const unnamed = await buildCheck(built, { name: '' });
    const page = (await agent.get(`${base}timeline/`)).text;
    expect(page).to.contain(`<a href="${base}checks/${unnamed._id}/">unnamed</a>`).and.contain('class="name">unnamed</text>');
    expect(page.split(unnamed._id).length - 1).to.equal(3); // the row's data-check twice and its link; never as a name
  });

  it('asks before copying a check: the GET and a POST without confirm=yes change nothing', async () => {
    const { agent, one, _csrf } = await setUp();
    const asked = await agent.get(`${one}copy/`);
    expect(asked.status).to.equal(200);
    expect(asked.text).to.contain('Copy “backup”?').and.contain(`action="${one}copy"`).and.contain('name="confirm" value="yes"').and.contain(PROJECT_NAV);
    const unconfirmed = await agent.post(`${one}copy`).type('form').send({ _csrf });
    expect(unconfirmed.status).to.equal(200);
    expect(unconfirmed.text).to.contain('id="confirm-action">Create the copy</button>');
    expect(await Check.countDocuments()).to.equal(1);
    const done = await agent.post(`${one}copy`).type('form').send({ _csrf, confirm: 'yes' });
    expect(done.status).to.equal(303);
    expect(await Check.countDocuments({ name: 'backup (copy)' })).to.equal(1);
  });

  it('asks before removing a member: the GET and a POST without confirm=yes change nothing', async () => {
    const { agent, base, other, built, _csrf } = await setUp();
    const path = `${base}members/${other._id}/remove`;
    expect((await agent.get(`${base}members/`)).text).to.contain(`action="${path}" class="inline" data-confirm="Remove other@example.org`);
    const asked = await agent.get(`${path}/`);
    expect(asked.status).to.equal(200);
    expect(asked.text).to.contain('Remove other@example.org?').and.contain('id="confirm-action">Remove the member</button>');
    expect((await agent.post(path).type('form').send({ _csrf })).status).to.equal(200);
    expect(await Membership.countDocuments({ projectId: built.project._id, userId: other._id })).to.equal(1);
    const done = await agent.post(path).type('form').send({ _csrf, confirm: 'yes' });
    expect(done.status).to.equal(303);
    expect(await Membership.countDocuments({ projectId: built.project._id, userId: other._id })).to.equal(0);
  });

  it('answers the removal confirmation of someone who is no member with a 404', async () => {
    const { agent, base } = await setUp();
    const res = await agent.get(`${base}members/00000000-0000-4000-8000-000000000000/remove/`);
    expect(res.status).to.equal(404);
  });
});

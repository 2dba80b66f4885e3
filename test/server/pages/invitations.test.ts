/** Invitations (server/pages/members/members.ts, shared/services/invitations.ts): signed, once, for 7 days, for one address. */
import { expect } from 'chai';
import { Membership } from '../../../shared/models/membership.js';
import { User, type UserDoc } from '../../../shared/models/user.js';
import { Invitation, type InvitationDoc } from '../../../shared/models/invitation.js';
import { INVITATION_TTL_MS } from '../../../shared/services/invitations.js';
import { buildProject } from '../../helpers/factories.js';
import { buildUser, csrfOf, join, PASSWORD, signIn, tokenOf, webAgent } from '../../helpers/web.js';

/** The owner's agent, and the path of an invitation the owner made for `email` as `role`. */
async function invite(email: string, role = 'ro'): Promise<{ projectId: string; path: string }> {
  const { project } = await buildProject({ name: 'Backups' });
  await join(project._id, await buildUser('own@example.org'), 'owner');
  const owner = webAgent();
  await signIn(owner, 'own@example.org');
  const _csrf = csrfOf((await owner.get(`/projects/${project._id}/members/`)).text);
  const res = await owner.post(`/projects/${project._id}/members/invite`).type('form').send({ _csrf, email, role });
  expect(res.status).to.equal(200);
  const link = /id="invite-link">([^<]+)</.exec(res.text)?.[1] ?? '';
  return { projectId: project._id, path: new URL(link).pathname };
}

/** Accepts an invitation as a signed-in `agent`. */
async function accept(agent: ReturnType<typeof webAgent>, path: string) {
  const _csrf = csrfOf((await agent.get(path)).text);
  return agent.post(path).type('form').send({ _csrf });
}

describe('invitations', () => {
  it('lets the invited user join with the role, once', async () => {
    const { projectId, path } = await invite('bob@example.org', 'ro');
    await buildUser('bob@example.org');
    const bob = webAgent();
    await signIn(bob, 'bob@example.org');
    const first = await accept(bob, path);
    expect(first.headers.location).to.equal(`/projects/${projectId}/`);
    expect(await Membership.findOne({ projectId, role: 'ro' }).lean()).not.to.equal(null);
    const again = await bob.get(path);
    expect([again.status, again.headers.location]).to.deep.equal([303, `/projects/${projectId}/`]);
    const other = await webAgent().get(path);
    expect(other.status).to.equal(410);
    expect(other.text).to.contain('This invitation has already been used.');
  });

  it('lets an invited person sign up through the link while registration is closed', async () => {
    const { projectId, path } = await invite('bob@example.org');
    const bob = webAgent();
    const token = path.split('/').pop() ?? '';
    const page = await bob.get(`/signup/?invite=${token}`);
    expect(page.status).to.equal(200);
    const signUp = await bob.post('/signup/').type('form').send({ _csrf: csrfOf(page.text), invite: token, email: 'bob@example.org', password: PASSWORD });
    expect(signUp.headers.location).to.equal(`/signin/?next=${encodeURIComponent(path)}`);
    await signIn(bob, 'bob@example.org');
    expect((await bob.get(path)).headers.location).to.equal(`/projects/${projectId}/`);
  });

  it('refuses an expired invitation', async () => {
    const { path } = await invite('bob@example.org');
    await buildUser('bob@example.org');
    const later = webAgent({}, () => new Date(Date.now() + INVITATION_TTL_MS + 1000));
    await signIn(later, 'bob@example.org');
    const res = await later.get(path);
    expect(res.status).to.equal(410);
    expect(res.text).to.contain('This invitation has expired.');
  });

  it('refuses a link with a wrong signature, or signed with another SECRET_KEY', async () => {
    const { path } = await invite('bob@example.org');
    expect((await webAgent().get(`${path.slice(0, -2)}xx`)).status).to.equal(404);
    expect((await webAgent({ secretKey: 'another' }).get(path)).status).to.equal(404);
  });

  it('refuses a user signed in with another address, and keeps the invitation usable', async () => {
    const { path } = await invite('bob@example.org');
    await buildUser('eve@example.org');
    const eve = webAgent();
    await signIn(eve, 'eve@example.org');
    const res = await accept(eve, path);
    expect(res.status).to.equal(403);
    expect(res.text).to.contain('This invitation is for another email address.');
    expect((await webAgent().get(path)).status).to.equal(200);
  });

  it('lets the owner change a role and remove a member, but never the last owner', async () => {
    const { project } = await buildProject();
    const own = await buildUser('own@example.org');
    const bob = await buildUser('bob@example.org');
    await join(project._id, own, 'owner');
    await join(project._id, bob, 'ro');
    const owner = webAgent();
    await signIn(owner, 'own@example.org');
    const _csrf = csrfOf((await owner.get(`/projects/${project._id}/members/`)).text);
    const base = `/projects/${project._id}/members`;
    expect((await owner.post(`${base}/${bob._id}/role`).type('form').send({ _csrf, role: 'rw' })).status).to.equal(303);
    expect(await Membership.findOne({ userId: bob._id }).lean()).to.include({ role: 'rw' });
    const demote = await owner.post(`${base}/${own._id}/role`).type('form').send({ _csrf, role: 'ro' });
    expect(demote.status).to.equal(400);
    expect(demote.text).to.contain('a project needs at least one owner.');
    expect((await owner.post(`${base}/${bob._id}/remove`).type('form').send({ _csrf, confirm: 'yes' })).status).to.equal(303);
    expect(await Membership.countDocuments({ projectId: project._id })).to.equal(1);
  });
});

describe('invitations: sign-up through a link, only for the address it was made for', () => {
  /** Posts the sign-up form of the invitation `path` with `email`. */
  async function signUp(path: string, email: string) {
    const token = path.split('/').pop() ?? '';
    const agent = webAgent();
    const _csrf = await tokenOf(agent);
    return agent.post('/signup/').type('form').send({ _csrf, invite: token, email, password: PASSWORD });
  }

  it('refuses an address other than the invited one, and creates no account', async () => {
    const { path } = await invite('bob@example.org');
    const res = await signUp(path, 'eve@example.org');
    expect(res.status).to.equal(400);
    expect(res.text).to.contain('this invitation is for another email address.');
    expect(await User.countDocuments({ email: 'eve@example.org' })).to.equal(0);
  });

  it('uses the invitation up: the new account is a member, and the link opens sign-up no more', async () => {
    const { projectId, path } = await invite('bob@example.org', 'rw');
    expect((await signUp(path, 'bob@example.org')).status).to.equal(303);
    const bob = await User.findOne({ email: 'bob@example.org' }).lean<UserDoc>();
    expect(await Membership.findOne({ projectId, userId: bob?._id }).lean()).to.include({ role: 'rw' });
    const token = path.split('/').pop() ?? '';
    expect((await webAgent().get(`/signup/?invite=${token}`)).status).to.equal(404);
    expect((await signUp(path, 'carol@example.org')).status).to.equal(404);
    expect(await User.countDocuments({ email: 'carol@example.org' })).to.equal(0);
    // Signed in, the invited person's link leads to the project it joined.
    const agent = webAgent();
    await signIn(agent, 'bob@example.org');
    const again = await agent.get(path);
    expect([again.status, again.headers.location]).to.deep.equal([303, `/projects/${projectId}/`]);
  });

  it('lists pending invitations to the owner, who revokes one: its link then works no more', async () => {
    const { projectId, path } = await invite('bob@example.org');
    const owner = webAgent();
    await signIn(owner, 'own@example.org');
    const page = await owner.get(`/projects/${projectId}/members/`);
    expect(page.text).to.match(/id="invitations"[\s\S]*bob@example\.org/);
    const revoke = /action="([^"]+\/revoke)"/.exec(page.text)?.[1] ?? '';
    expect(revoke).to.match(new RegExp(`^/projects/${projectId}/members/invitations/[^/]+/revoke$`));
    expect((await owner.post(revoke).type('form').send({ _csrf: csrfOf(page.text) })).status).to.equal(303);
    expect((await owner.get(`/projects/${projectId}/members/`)).text).not.to.contain('id="invitations"');
    const opened = await webAgent().get(path);
    expect(opened.status).to.equal(410);
    expect(opened.text).to.contain('This invitation has been revoked.');
    expect((await signUp(path, 'bob@example.org')).status).to.equal(404);
  });

  it('does not let a read-write member see or revoke invitations', async () => {
    const { projectId } = await invite('bob@example.org');
    const rw = await buildUser('rw@example.org');
    await join(projectId, rw, 'rw');
    const agent = webAgent();
    await signIn(agent, 'rw@example.org');
    const page = await agent.get(`/projects/${projectId}/members/`);
    expect(page.text).not.to.contain('bob@example.org');
    const invitation = await Invitation.findOne({ projectId }).lean<InvitationDoc>();
    const res = await agent.post(`/projects/${projectId}/members/invitations/${invitation?._id}/revoke`).type('form').send({ _csrf: csrfOf(page.text) });
    expect(res.status).to.equal(403);
    expect(await Invitation.countDocuments({ projectId, revokedAt: null })).to.equal(1);
  });
});

describe('members: the last owner', () => {
  it('keeps an owner when two owners demote each other at the same moment', async () => {
    for (let round = 0; round < 5; round += 1) {
      const { project } = await buildProject();
      const ann = await buildUser(`ann${round}@example.org`);
      const bob = await buildUser(`bob${round}@example.org`);
      await join(project._id, ann, 'owner');
      await join(project._id, bob, 'owner');
      const agents = [webAgent(), webAgent()];
      await signIn(agents[0], ann.email);
      await signIn(agents[1], bob.email);
      const base = `/projects/${project._id}/members`;
      const tokens = await Promise.all(agents.map(async (agent) => csrfOf((await agent.get(`${base}/`)).text)));
      const answers = await Promise.all([
        agents[0].post(`${base}/${bob._id}/role`).type('form').send({ _csrf: tokens[0], role: 'ro' }),
        agents[1].post(`${base}/${ann._id}/role`).type('form').send({ _csrf: tokens[1], role: 'ro' }),
      ]);
      expect(answers.map((res) => res.status).sort()).to.deep.equal([303, 400]);
      expect(await Membership.countDocuments({ projectId: project._id, role: 'owner' })).to.equal(1);
    }
  });

  it('keeps an owner when two owners remove each other at the same moment', async () => {
    const { project } = await buildProject();
    const ann = await buildUser('ann@example.org');
    const bob = await buildUser('bob@example.org');
    await join(project._id, ann, 'owner');
    await join(project._id, bob, 'owner');
    const agents = [webAgent(), webAgent()];
    await signIn(agents[0], ann.email);
    await signIn(agents[1], bob.email);
    const base = `/projects/${project._id}/members`;
    const tokens = await Promise.all(agents.map(async (agent) => csrfOf((await agent.get(`${base}/`)).text)));
    await Promise.all([
      agents[0].post(`${base}/${bob._id}/remove`).type('form').send({ _csrf: tokens[0], confirm: 'yes' }),
      agents[1].post(`${base}/${ann._id}/remove`).type('form').send({ _csrf: tokens[1], confirm: 'yes' }),
    ]);
    expect(await Membership.countDocuments({ projectId: project._id, role: 'owner' })).to.equal(1);
  });
});

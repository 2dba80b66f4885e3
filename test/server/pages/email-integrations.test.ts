/**
 * Email integrations' addresses (server/pages/integrations/channel-links.ts, shared/services/email-channels.ts): confirmation
 * mailed on every creation path, confirmed by link, one-click unsubscribe; mail caught by a real SMTP receiver.
 */
import { expect } from 'chai';
import type supertest from 'supertest';
import { Channel } from '../../../shared/models/channel.js';
import { CONFIRM_TTL_MS, addressToken } from '../../../shared/notify/address-links.js';
import { config } from '../../../shared/config.js';
import { MAILS_PER_EMAIL } from '../../../server/pages/kit/limits.js';
import { buildChannel, buildProject } from '../../helpers/factories.js';
import { buildUser, csrfOf, join, signIn, tokenOf, webAgent } from '../../helpers/web.js';
import { linkPathIn, mailTo, useMailbox } from '../../helpers/mailbox.js';
import { jsonOf, runCli } from '../../scripts/hc-admin/run-cli.js';

describe('email integrations: confirmed addresses and unsubscribe', () => {
  const box = useMailbox();
  const agent = (clock?: () => Date) => webAgent({ smtpUrl: box.smtp.url }, clock);

  /** An owner signed in to a new project. */
  async function owner(): Promise<{ web: supertest.Agent; projectId: string; apiKey: string }> {
    const { project, apiKey } = await buildProject({ name: 'Ops' });
    await join(project._id, await buildUser('own@example.org'), 'owner');
    const web = agent();
    await signIn(web, 'own@example.org');
    return { web, projectId: project._id, apiKey };
  }
  /** Adds an email integration through the page. */
  async function addEmail(web: supertest.Agent, projectId: string, address: string): Promise<supertest.Response> {
    const _csrf = csrfOf((await web.get(`/projects/${projectId}/integrations/`)).text);
    return web.post(`/projects/${projectId}/integrations/`).type('form').send({ _csrf, kind: 'email', name: 'Team', notify: 'both', address });
  }
  /** Opens a link's page and presses its button. */
  async function follow(client: supertest.Agent, path: string): Promise<supertest.Response> {
    const page = await client.get(path);
    const _csrf = page.status === 200 ? csrfOf(page.text) : await tokenOf(client);
    return client.post(path).type('form').send({ _csrf });
  }

  it('mails each address of a new integration a confirmation, shows it unconfirmed until the link is followed', async () => {
    const { web, projectId } = await owner();
    const added = await addEmail(web, projectId, 'a@example.org, b@example.org');
    expect(added.status, added.text).to.equal(303);
    expect((await web.get(`/projects/${projectId}/integrations/`)).text).to.contain('unconfirmed: a@example.org, b@example.org');
    const mail = await mailTo(box, 'a@example.org', 'Confirm alerts');
    await mailTo(box, 'b@example.org', 'Confirm alerts');
    expect(mail.mail.text).to.contain('integration "Team"');
    const done = await follow(agent(), linkPathIn(mail));
    expect([done.status, done.text.includes('now come to this address')]).to.deep.equal([200, true]);
    expect((await Channel.findOne({}).lean())?.unconfirmed).to.deep.equal(['b@example.org']);
    const again = await follow(agent(), linkPathIn(mail));
    expect([again.status, again.text.includes('This address is confirmed already')]).to.deep.equal([410, true]);
  });

  it('refuses a forged or expired confirmation, changing nothing', async () => {
    const { web, projectId } = await owner();
    await addEmail(web, projectId, 'a@example.org');
    const path = linkPathIn(await mailTo(box, 'a@example.org'));
    const channel = await Channel.findOne({}).lean();
    const forged = `/integrations/confirm/${addressToken('confirm', channel?._id ?? '', 'a@example.org', 'not the secret')}`;
    expect((await follow(agent(), forged)).status).to.equal(404);
    const unsubscribeAsConfirm = `/integrations/confirm/${addressToken('unsubscribe', channel?._id ?? '', 'a@example.org', config.secretKey)}`;
    expect((await follow(agent(), unsubscribeAsConfirm)).status).to.equal(404);
    expect((await follow(agent(() => new Date(Date.now() + CONFIRM_TTL_MS + 1000)), path)).status).to.equal(410);
    expect((await Channel.findOne({}).lean())?.unconfirmed).to.deep.equal(['a@example.org']);
  });

  it('mails a confirmation to an integration created through the API, which lists it unconfirmed', async () => {
    const { apiKey } = await owner();
    const res = await agent().post('/api/v3/integrations/').set('X-Api-Key', apiKey).send({ kind: 'email', name: 'Api', value: 'api@example.org' });
    expect([res.status, res.body.unconfirmed]).to.deep.equal([201, ['api@example.org']]);
    expect(linkPathIn(await mailTo(box, 'api@example.org'))).to.match(/^\/integrations\/confirm\//);
  });

  it('creates confirmed with hc-admin --confirmed, unconfirmed without it', async () => {
    const { projectId } = await owner();
    const args = ['channel', 'create', '--project', projectId, '--kind', 'email', '--name', 'Ops', '--value', 'ops@example.org'];
    const confirmed = jsonOf(await runCli([...args, '--confirmed'])) as { id: string };
    const plain = jsonOf(await runCli(args)) as { id: string };
    expect((await Channel.findById(confirmed.id).lean())?.unconfirmed).to.deep.equal([]);
    expect((await Channel.findById(plain.id).lean())?.unconfirmed).to.deep.equal(['ops@example.org']);
  });

  it(`answers 429 past ${MAILS_PER_EMAIL} confirmation mails to one address an hour, creating nothing`, async () => {
    const { web, projectId } = await owner();
    for (let i = 0; i < MAILS_PER_EMAIL; i += 1) expect((await addEmail(web, projectId, 'a@example.org')).status).to.equal(303);
    expect((await addEmail(web, projectId, 'A@example.org')).status).to.equal(429);
    expect(await Channel.countDocuments()).to.equal(MAILS_PER_EMAIL);
  });

  it('unsubscribes one-click without a session: removes the address, then disables the channel at the last one', async () => {
    const project = await buildProject();
    const channel = await buildChannel(project, { kind: 'email', value: '{"address": "a@example.org,b@example.org", "up": false}' });
    const link = (address: string) => `/integrations/unsubscribe/${addressToken('unsubscribe', channel._id, address, config.secretKey)}`;
    const page = await agent().get(link('a@example.org'));
    expect([page.status, page.text.includes('Stop the alerts of the integration')]).to.deep.equal([200, true]);
    const oneClick = await agent().post(link('a@example.org')).type('form').send('List-Unsubscribe=One-Click');
    expect(oneClick.status).to.equal(200);
    expect(JSON.parse((await Channel.findById(channel._id).lean())?.value ?? '')).to.deep.equal({ address: 'b@example.org', up: false });
    expect((await agent().post(link('a@example.org'))).status).to.equal(410);
    await agent().post(link('b@example.org'));
    expect((await Channel.findById(channel._id).lean())?.disabled).to.equal(true);
    expect((await agent().post(`${link('b@example.org')}x`)).status).to.equal(404);
  });
});

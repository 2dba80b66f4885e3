/**
 * An address that used the one-click unsubscribe stays unsubscribed: re-enabling its channel through the API mails a
 * new confirmation (caught by a real SMTP receiver) and nothing, not even a Test, goes to it before it is followed.
 */
import { expect } from 'chai';
import { config } from '../../shared/config.js';
import { Channel } from '../../shared/models/channel.js';
import { addressToken } from '../../shared/notify/address-links.js';
import { buildChannel, buildProject } from '../helpers/factories.js';
import { linkPathIn, mailTo, useMailbox } from '../helpers/mailbox.js';
import { buildUser, csrfOf, join, signIn, webAgent } from '../helpers/web.js';

describe('security: an unsubscribed address stays unsubscribed', () => {
  const box = useMailbox();

  it('re-enabling the channel through the API mails a new confirmation and delivers nothing before it is followed', async () => {
    const built = await buildProject({ name: 'Ops' });
    const { project, apiKey } = built;
    await join(project._id, await buildUser('own@example.org'), 'owner');
    const channel = await buildChannel(built, { kind: 'email', name: 'Solo', value: 'solo@example.org' });
    const agent = webAgent({ smtpUrl: box.smtp.url });
    const unsubscribe = `/integrations/unsubscribe/${addressToken('unsubscribe', channel._id, 'solo@example.org', config.secretKey)}`;
    expect((await agent.post(unsubscribe).type('form').send('List-Unsubscribe=One-Click')).status).to.equal(200);
    expect((await Channel.findById(channel._id).lean())?.disabled).to.equal(true);

    const enabled = await agent.post(`/api/v3/integrations/${channel._id}`).set('X-Api-Key', apiKey).send({ disabled: false });
    expect(enabled.status).to.equal(200);
    expect(enabled.body).to.include({ disabled: false });
    expect(enabled.body.unconfirmed).to.deep.equal(['solo@example.org']);
    const confirmation = await mailTo(box, 'solo@example.org', 'Confirm alerts');

    await signIn(agent, 'own@example.org');
    const list = await agent.get(`/projects/${project._id}/integrations/`);
    const tested = await agent.post(`/projects/${project._id}/integrations/${channel._id}/test`).type('form').send({ _csrf: csrfOf(list.text) });
    expect(tested.text).to.contain('email address not confirmed by its owner yet');

    const link = linkPathIn(confirmation);
    const page = await agent.get(link);
    expect((await agent.post(link).type('form').send({ _csrf: csrfOf(page.text) })).status).to.equal(200);
    expect((await Channel.findById(channel._id).lean())?.unconfirmed ?? []).to.deep.equal([]);
  });
});

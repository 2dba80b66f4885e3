/**
 * Editing a channel through its kind's form (server/pages/integrations/channel-form.ts): non-secret settings filled in, secrets
 * never shown back (empty keeps, "remove" drops an optional one), an alias kind kept, and choosing another kind
 * (the "Choose" button, or a kind changed without the page's script) shows its fields and saves nothing.
 */
import { expect } from 'chai';
import type supertest from 'supertest';
import { Channel, type ChannelDoc } from '../../../shared/models/channel.js';
import { buildChannel, buildProject, type TestProject } from '../../helpers/factories.js';
import { buildUser, csrfOf, join, signIn, webAgent } from '../../helpers/web.js';

const TOKEN = '123456:SECRET-bot-token-value';
const stored = async (id: string): Promise<string> => (await Channel.findById(id).lean<ChannelDoc>())!.value;

describe('integrations page: editing through the kind’s form', () => {
  let built: TestProject;
  let agent: supertest.Agent;
  let base: string;
  let _csrf: string;
  beforeEach(async () => {
    built = await buildProject();
    await join(built.project._id, await buildUser('rw@example.org'), 'rw');
    agent = webAgent();
    await signIn(agent, 'rw@example.org');
    base = `/projects/${built.project._id}/integrations/`;
    _csrf = csrfOf((await agent.get(base)).text);
  });
  const save = (channel: ChannelDoc, fields: Record<string, string>) =>
    agent.post(`${base}${channel._id}/`).type('form').send({ _csrf, kind: channel.kind, fields_kind: channel.kind, name: channel.name, notify: 'both', ...fields });

  it('fills in the non-secret settings and never shows a secret back', async () => {
    const channel = await buildChannel(built, { name: 'tg', kind: 'telegram', value: JSON.stringify({ chat_id: '-1001234', token: TOKEN, thread_id: 7, down: false }) });
    const html = (await agent.get(`${base}${channel._id}/edit/`)).text;
    expect(html).to.match(/id="telegram-chat_id" name="chat_id"[^>]*value="-1001234"/).and.match(/id="telegram-thread_id" name="thread_id"[^>]*value="7"/);
    expect(html).to.match(/id="telegram-token" name="token"[^>]*value=""/).and.not.contain('SECRET-bot');
    expect(html).to.contain('Empty: the server’s TELEGRAM_TOKEN. A value is stored: leave this empty to keep it.');
    expect(html).to.contain('<input type="checkbox" name="clear" value="token" > Remove the stored value of “Bot token”</label>');
    expect(html).to.contain('<option value="up" selected>up only</option>');
  });

  it('keeps a secret left empty, replaces a new one, and removes one whose box is ticked', async () => {
    const channel = await buildChannel(built, { name: 'tg', kind: 'telegram', value: JSON.stringify({ chat_id: '-1001234', token: TOKEN }) });
    expect((await save(channel, { chat_id: '-1009999', token: '' })).status).to.equal(303);
    expect(JSON.parse(await stored(channel._id))).to.deep.equal({ chat_id: '-1009999', token: TOKEN });
    await save(channel, { chat_id: '-1009999', token: '42:new-token' });
    expect(JSON.parse(await stored(channel._id))).to.deep.equal({ chat_id: '-1009999', token: '42:new-token' });
    await save(channel, { chat_id: '-1009999', token: '', clear: 'token' });
    expect(JSON.parse(await stored(channel._id))).to.deep.equal({ chat_id: '-1009999' });
  });

  it('asks for the stored secrets again when the server or URL changes, so none goes to a new host', async () => {
    const value = JSON.stringify({ url: 'https://gotify.example.org', token: 'AbCdEf-gotify-app-token' });
    const channel = await buildChannel(built, { name: 'push', kind: 'gotify', value });
    const moved = await save(channel, { url: 'https://attacker.example', token: '' });
    expect(moved.status).to.equal(400);
    expect(moved.text).to.contain('<p class="field-error" id="token-error">the server or URL changed: enter this again</p>');
    expect(await stored(channel._id)).to.equal(value);
    expect((await save(channel, { url: 'https://gotify.example.org', token: '' })).status).to.equal(303);
    expect((await save(channel, { url: 'https://gotify2.example.org', token: 'new-app-token' })).status).to.equal(303);
    expect(JSON.parse(await stored(channel._id))).to.deep.equal({ url: 'https://gotify2.example.org', token: 'new-app-token' });
  });

  it('asks for a webhook’s stored headers again when a URL changes', async () => {
    const value = JSON.stringify({ url_down: 'https://hooks.example.org/down', headers_down: { Authorization: 'Bearer s3cret-s3cret' } });
    const channel = await buildChannel(built, { name: 'hook', kind: 'webhook', value });
    const moved = await save(channel, { url_down: 'https://attacker.example/collect', headers_down: '' });
    expect(moved.status).to.equal(400);
    expect(moved.text).to.contain('<p class="field-error" id="headers_down-error">the server or URL changed: enter this again</p>');
    expect(await stored(channel._id)).to.equal(value);
  });

  it('does not carry a secret over to another kind', async () => {
    const channel = await buildChannel(built, { name: 'chat', kind: 'slack', value: 'https://hooks.slack.com/services/T0/B0/XXXX' });
    const res = await agent.post(`${base}${channel._id}/`).type('form').send({ _csrf, kind: 'discord', fields_kind: 'discord', name: 'chat', notify: 'both', url: '' });
    expect(res.status).to.equal(400);
    expect(res.text).to.contain('<p class="field-error" id="url-error">&quot;url&quot; is required</p>');
    expect(await stored(channel._id)).to.equal('https://hooks.slack.com/services/T0/B0/XXXX');
  });

  it('offers an alias kind (pd) as itself and keeps it and its key on save', async () => {
    const channel = await buildChannel(built, { name: 'pager', kind: 'pd', value: 'a'.repeat(32) });
    const html = (await agent.get(`${base}${channel._id}/edit/`)).text;
    expect(html).to.contain('<option value="pd" selected>PagerDuty (pd)</option>').and.contain('<fieldset class="kind-fields" data-kind="pd" >');
    expect((await save(channel, { routing_key: '' })).status).to.equal(303);
    const after = await Channel.findById(channel._id).lean<ChannelDoc>();
    expect([after?.kind, JSON.parse(after?.value ?? '')]).to.deep.equal(['pd', { routing_key: 'a'.repeat(32) }]);
  });

  it("shows another kind's fields on Choose, or on a kind changed without the script, and saves nothing", async () => {
    const chosen = await agent.post(base).type('form').send({ _csrf, kind: 'slack', fields_kind: 'webhook', choose: '1', name: 'x', notify: 'both', url: '' });
    expect(chosen.status).to.equal(200);
    expect(chosen.text).to.contain('<fieldset class="kind-fields" data-kind="slack" >').and.contain('<fieldset class="kind-fields" data-kind="webhook" hidden disabled>');
    const switched = await agent.post(base).type('form').send({ _csrf, kind: 'email', fields_kind: 'webhook', name: 'x', notify: 'both', url: 'https://example.org/h' });
    expect(switched.status).to.equal(200);
    expect(switched.text).to.contain('<fieldset class="kind-fields" data-kind="email" >').and.contain('value="x"');
    expect(await Channel.countDocuments()).to.equal(0);
  });
});

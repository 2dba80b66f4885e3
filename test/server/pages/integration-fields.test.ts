/**
 * The integrations page's form made for each kind (server/pages/integrations/channel-kinds.ts, channel-form.ts, channel-view.ts):
 * labelled fields with instructions, the kind's Joi message under the field at fault with nothing stored, and what a
 * right form stores equal to what `POST /api/v3/integrations/` stores for the same settings.
 */
import { expect } from 'chai';
import type supertest from 'supertest';
import { Channel, type ChannelDoc } from '../../../shared/models/channel.js';
import { channelValueOf } from '../../../server/services/channel-input.js';
import { settingsOfForm } from '../../../server/pages/integrations/channel-form.js';
import { buildChannel, buildProject, type TestProject } from '../../helpers/factories.js';
import { buildUser, csrfOf, join, signIn, webAgent } from '../../helpers/web.js';
import { api } from '../routes/support.js';

const SLACK_URL = 'https://hooks.slack.com/services/T0000/B0000/XXXXXXXXXXXXXXXXXXXXXXXX';

interface Page {
  built: TestProject;
  agent: supertest.Agent;
  base: string;
  /** POSTs the form to `path` (default: add) as a browser does: `fields` in order, a list as repeated fields. */
  post(kind: string, fields: Record<string, string | string[]>, path?: string): Promise<supertest.Response>;
}

/** A read-write member signed in on a new project's integrations page. */
async function open(): Promise<Page> {
  const built = await buildProject();
  await join(built.project._id, await buildUser('rw@example.org'), 'rw');
  const agent = webAgent();
  await signIn(agent, 'rw@example.org');
  const base = `/projects/${built.project._id}/integrations/`;
  const _csrf = csrfOf((await agent.get(base)).text);
  const post = (kind: string, fields: Record<string, string | string[]>, path = base) => {
    const body = new URLSearchParams({ _csrf, kind, fields_kind: kind, name: 'made by form', notify: 'both' });
    for (const [name, value] of Object.entries(fields)) for (const item of [value].flat()) body.append(name, item);
    return agent.post(path).type('form').send(body.toString());
  };
  return { built, agent, base, post };
}

/** The value the API stores for `settings` of `kind` (the channel is then deleted, leaving the form's alone). */
async function apiValueOf(page: Page, kind: string, settings: object): Promise<string> {
  const res = await api(page.built.apiKey).post('/integrations/', { kind, value: settings });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  const channel = await Channel.findByIdAndDelete(res.body.id).lean<ChannelDoc>();
  return channel!.value;
}

/** The only channel the form made. */
async function madeByForm(): Promise<ChannelDoc | null> {
  return Channel.findOne({ name: 'made by form' }).lean<ChannelDoc>();
}

describe('integrations page: a form made for each kind', () => {
  let page: Page;
  beforeEach(async () => {
    page = await open();
  });

  it("renders every kind's labelled fields with their instructions, only the chosen kind's enabled", async () => {
    const html = (await page.agent.get(page.base)).text;
    expect(html.match(/<fieldset class="kind-fields"/g)).to.have.length(29);
    expect(html).to.contain('<fieldset class="kind-fields" data-kind="webhook" >').and.contain('<fieldset class="kind-fields" data-kind="slack" hidden disabled>');
    expect(html).to.match(/<label for="webhook-url_down">URL \(optional\)<\/label>\s*<input id="webhook-url_down" name="url_down" aria-describedby="webhook-url_down-hint"/);
    expect(html).to.match(/<label for="email-address">Address<\/label>\s*<input id="email-address" name="address" aria-describedby="email-address-hint" aria-required="true"/);
    expect(html).to.contain('<p class="hint" id="telegram-chat_id-hint">The numeric chat id (groups start with -), or @channelname.</p>');
    expect(html).to.contain('id="shell-cmd_down"').and.contain('<details class="setting-group" ><summary>When a check goes down</summary>');
  });

  it('webhook: a wrong URL or header line is shown under its field and stores nothing; a right one stores what the API stores', async () => {
    const badUrl = await page.post('webhook', { url_down: 'ftp://example.org/x', method_down: 'POST' });
    expect(badUrl.status).to.equal(400);
    expect(badUrl.text).to.contain('<p class="field-error" id="url_down-error">&quot;url_down&quot; must be a valid uri with a scheme matching the http|https pattern</p>');
    expect(badUrl.text).to.contain('<details class="setting-group" open><summary>When a check goes down</summary>');
    const badHeader = await page.post('webhook', { url_down: 'https://example.org/down', headers_down: 'Authorization Bearer x' });
    expect(badHeader.text).to.contain('<p class="field-error" id="headers_down-error">line 1: write a header as Name: value</p>');
    const none = await page.post('webhook', {});
    expect(none.text).to.contain('id="url-error">a webhook needs url, or url_down and/or url_up</p>');
    expect(await Channel.countDocuments()).to.equal(0);

    const fields = { url_down: 'https://example.org/down?c=$CODE', method_down: 'PUT', headers_down: 'Authorization: Bearer s3cret\r\nX-Kind: down', body_down: '$JSON' };
    expect((await page.post('webhook', { ...fields, url_up: 'https://example.org/up' })).status).to.equal(303);
    const settings = { url_down: fields.url_down, method_down: 'PUT', headers_down: { Authorization: 'Bearer s3cret', 'X-Kind': 'down' }, body_down: '$JSON', url_up: 'https://example.org/up' };
    expect((await madeByForm())?.value).to.equal(await apiValueOf(page, 'webhook', settings));
  });

  it('email: a wrong address is shown under its field; a right list stores what the API stores', async () => {
    const bad = await page.post('email', { address: 'not-an-address' });
    expect(bad.status).to.equal(400);
    expect(bad.text).to.contain('<p class="field-error" id="address-error">&quot;address&quot; must be a valid email</p>');
    expect(await Channel.countDocuments()).to.equal(0);
    expect((await page.post('email', { address: ' ops@example.org,oncall@example.org ' })).status).to.equal(303);
    expect((await madeByForm())?.value).to.equal(await apiValueOf(page, 'email', { address: 'ops@example.org,oncall@example.org' }));
  });

  it('slack: a URL without a scheme is shown under its field; the webhook URL stores what the API stores', async () => {
    const bad = await page.post('slack', { url: 'hooks.slack.com/services/T0000' });
    expect(bad.text).to.contain('<p class="field-error" id="url-error">&quot;url&quot; must be a valid uri');
    expect(bad.text).to.match(/<input id="slack-url" name="url" aria-describedby="slack-url-hint url-error" aria-required="true" aria-invalid="true" autofocus/);
    expect(await Channel.countDocuments()).to.equal(0);
    expect((await page.post('slack', { url: SLACK_URL })).status).to.equal(303);
    expect((await madeByForm())?.value).to.equal(await apiValueOf(page, 'slack', { url: SLACK_URL }));
  });

  it('telegram: a wrong chat id or thread id is shown under its field; numbers are stored as the API stores them', async () => {
    const badChat = await page.post('telegram', { chat_id: 'my chat' });
    expect(badChat.text).to.contain('<p class="field-error" id="chat_id-error">&quot;chat_id&quot; with value &quot;my chat&quot; fails to match the required pattern');
    const badThread = await page.post('telegram', { chat_id: '-1001234', thread_id: 'general' });
    expect(badThread.text).to.contain('<p class="field-error" id="thread_id-error">&quot;thread_id&quot; must be a number</p>');
    expect(await Channel.countDocuments()).to.equal(0);
    expect((await page.post('telegram', { chat_id: '-1001234', token: '123456:ABC-def', thread_id: '7' })).status).to.equal(303);
    expect((await madeByForm())?.value).to.equal(await apiValueOf(page, 'telegram', { chat_id: '-1001234', token: '123456:ABC-def', thread_id: 7 }));
  });

  it("group: offers the project's other channels, refuses none or a group under the field, stores what the API stores", async () => {
    const mail = await buildChannel(page.built, { name: 'ops mail', kind: 'email', value: 'ops@example.org' });
    const hook = await buildChannel(page.built, { name: 'hook', kind: 'webhook', value: 'https://example.org/h' });
    const inner = await buildChannel(page.built, { name: 'inner', kind: 'group', value: mail._id });
    const html = (await page.agent.get(page.base)).text;
    expect(html).to.contain(`value="${mail._id}" id="group-channels-0"`).and.contain(`value="${hook._id}" id="group-channels-1"`).and.not.contain(`value="${inner._id}"`);
    const none = await page.post('group', {});
    expect(none.text).to.contain('<p class="field-error" id="channels-error">&quot;channels&quot; is required</p>');
    const nested = await page.post('group', { channels: [mail._id, inner._id] });
    expect(nested.text).to.contain(`<p class="field-error" id="channels-error">member ${inner._id} is a group (groups do not nest)</p>`);
    expect(await madeByForm()).to.equal(null);
    expect((await page.post('group', { channels: [mail._id, hook._id] })).status).to.equal(303);
    expect((await madeByForm())?.value).to.equal(await apiValueOf(page, 'group', { channels: [mail._id, hook._id] }));
  });

  it('shell: shows its two commands; without SHELL_ENABLED the API’s refusal is shown under the kind and nothing is stored', async () => {
    const res = await page.post('shell', { cmd_down: 'logger "$NAME is down"', cmd_up: '' });
    expect(res.status).to.equal(400);
    expect(res.text).to.contain('<p class="field-error" id="kind-error">shell commands are not enabled on this server</p>');
    expect(res.text).to.contain('value="logger &quot;$NAME is down&quot;"');
    const refused = await api(page.built.apiKey).post('/integrations/', { kind: 'shell', value: { cmd_down: 'logger "$NAME is down"' } });
    expect(refused.body.error).to.equal('json validation error: shell commands are not enabled on this server (SHELL_ENABLED)');
    expect(await Channel.countDocuments()).to.equal(0);
    // With SHELL_ENABLED, the form's settings are the object the API would take.
    const values = { kind: 'shell', name: '', notify: 'down', settings: { cmd_down: 'logger down', cmd_up: '' }, stored: [], clear: [] };
    expect(channelValueOf('shell', settingsOfForm(values, null), false, true)).to.equal('{"cmd_down":"logger down","up":false}');
  });
});

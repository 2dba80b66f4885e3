import { expect } from 'chai';
import { buildChannel, buildCheck, buildProject, type TestProject } from '../../../helpers/factories.js';
import { Channel, type ChannelDoc } from '../../../../shared/models/channel.js';
import { Check } from '../../../../shared/models/check.js';
import { channelValueOf } from '../../../../server/services/channel-input.js';
import { api } from '../support.js';

const SLACK_URL = 'https://hooks.slack.com/services/T0000/B0000/XXXXXXXXXXXXXXXXXXXXXXXX';
const stored = async (id: string): Promise<ChannelDoc> => (await Channel.findById(id).lean<ChannelDoc>())!;

describe('integrations through the API (GET and POST /api/v3/integrations/, GET, POST and DELETE /api/v3/integrations/<uuid>)', () => {
  let p: TestProject;
  beforeEach(async () => {
    p = await buildProject();
  });

  describe('create', () => {
    it('creates a channel from a settings object and answers 201 with its settings, secrets masked', async () => {
      const value = { url_down: 'https://example.com/hooks/down?token=abc', method_down: 'POST', headers_down: { Authorization: 'Bearer s3cret-s3cret-s3cret' } };
      const res = await api(p.apiKey).post('/integrations/', { kind: 'webhook', name: 'ops hook', value });
      expect(res.status).to.equal(201);
      const { id, ...rest } = res.body;
      expect(rest).to.include({ name: 'ops hook', kind: 'webhook', disabled: false, last_error: '', last_notify: null });
      expect(rest.settings).to.include({ url_down: 'https://example.com/…', method_down: 'POST' });
      expect(rest.settings.headers_down).to.deep.equal({ Authorization: '…cret' });
      const channel = await stored(id);
      expect([channel.projectId, JSON.parse(channel.value).url_down]).to.deep.equal([p.project._id, value.url_down]);
    });

    it('refuses a matrix channel naming a homeserver without its own access token (the server’s goes to MATRIX_HOMESERVER only)', async () => {
      const res = await api(p.apiKey).post('/integrations/', { kind: 'matrix', value: { room_id: '!room:example.org', homeserver: 'https://matrix.attacker.example' } });
      expect(res.status).to.equal(400);
      expect(res.body.error).to.contain('a homeserver of your own needs its own access_token');
      expect(await Channel.countDocuments({ projectId: p.project._id })).to.equal(0);
      const own = await api(p.apiKey).post('/integrations/', { kind: 'matrix', value: { room_id: '!room:example.org', homeserver: 'https://matrix.example.org', access_token: 'syt_own' } });
      expect(own.status).to.equal(201);
    });

    it('creates a channel from the kind\'s main setting as text, as hc-admin does', async () => {
      const res = await api(p.apiKey).post('/integrations/', { kind: 'email', value: 'ops@example.com' });
      expect([res.status, res.body.name, res.body.settings.address]).to.deep.equal([201, '', 'ops@example.com']);
      expect((await stored(res.body.id)).value).to.equal('ops@example.com');
    });

    it('masks tokens and chat webhook URLs; channels/ still lists id, name and kind only', async () => {
      await api(p.apiKey).post('/integrations/', { kind: 'slack', name: 'chat', value: SLACK_URL });
      await api(p.apiKey).post('/integrations/', { kind: 'telegram', value: { chat_id: '-1001', token: '123456:ABCDEFGHIJKLMNOPQRSTUVWXYZ' } });
      const plain = (await api(p.apiKey).get('/channels/')).body.channels;
      expect(plain.map((c: object) => Object.keys(c))).to.deep.equal([['id', 'name', 'kind'], ['id', 'name', 'kind']]);
      const [slack, telegram] = (await api(p.apiKey).get('/integrations/')).body.integrations;
      expect(slack.settings.url).to.equal('https://hooks.slack.com/…');
      expect(telegram.settings).to.include({ chat_id: '-1001', token: '…WXYZ' });
      expect(JSON.stringify([slack, telegram])).not.to.include('XXXXXXXX').and.not.to.include('ABCDEFG');
    });

    it('masks apprise URLs whole (their host may be a token) and ntfy topics', async () => {
      await api(p.apiKey).post('/integrations/', { kind: 'apprise', value: { url: 'https://apprise.example.com/notify', urls: 'tgram://123456:SECRETBOT/-100' } });
      await api(p.apiKey).post('/integrations/', { kind: 'ntfy', value: { topic: 'secret-topic-name-1234', url: 'https://ntfy.sh' } });
      const [apprise, ntfy] = (await api(p.apiKey).get('/integrations/')).body.integrations;
      expect(apprise.settings).to.include({ url: 'https://apprise.example.com/…' });
      expect(apprise.settings.urls).to.equal('tgram://…');
      expect(ntfy.settings).to.include({ topic: '…1234', url: 'https://ntfy.sh' });
    });

    it('works with "channels": "*" and by name on checks, as channels made otherwise', async () => {
      const { body: hook } = await api(p.apiKey).post('/integrations/', { kind: 'webhook', name: 'hook', value: 'https://example.com/hook' });
      const all = await api(p.apiKey).post('/checks/', { name: 'a', channels: '*' });
      const named = await api(p.apiKey).post('/checks/', { name: 'b', channels: 'hook' });
      const channelsOf = async (uuid: string) => (await Check.findById(uuid).lean())!.channels;
      expect([await channelsOf(all.body.ping_url.split('/').pop()), await channelsOf(named.body.ping_url.split('/').pop())]).to.deep.equal([[hook.id], [hook.id]]);
    });

    it('refuses bad input with the API\'s validation errors and stores nothing', async () => {
      const cases: [object, string][] = [
        [{ value: 'ops@example.com' }, 'json validation error: kind is missing'],
        [{ kind: 'email' }, 'json validation error: value is missing'],
        [{ kind: 'carrier-pigeon', value: 'x' }, 'json validation error: unknown channel kind: carrier-pigeon'],
        [{ kind: 'email', value: 42 }, 'json validation error: value is not a string or an object'],
        [{ kind: 'email', value: 'ops@example.com', name: 'n'.repeat(101) }, 'json validation error: name is too long'],
        [{ kind: 'webhook', value: { url_down: 'not a url' } }, 'json validation error: invalid channel value: "url_down" must be a valid uri with a scheme matching the http|https pattern'],
        [{ kind: 'email', value: '' }, 'json validation error: channel value is empty'],
      ];
      for (const [body, error] of cases) {
        const res = await api(p.apiKey).post('/integrations/', body);
        expect([res.status, res.body.error], JSON.stringify(body)).to.deep.equal([400, error]);
      }
      expect(await Channel.countDocuments({ projectId: p.project._id })).to.equal(0);
    });

    it('refuses a URL to a private address unless INTEGRATIONS_ALLOW_PRIVATE_IPS', () => {
      for (const url of ['http://127.0.0.1:8000/hook', 'http://[::1]/hook', 'https://10.1.2.3/hook', 'http://localhost/hook']) {
        expect(() => channelValueOf('webhook', url, false), url).to.throw(/^json validation error: invalid channel value: refused to connect to .*INTEGRATIONS_ALLOW_PRIVATE_IPS/);
        expect(channelValueOf('webhook', url, true)).to.equal(url);
      }
      expect(channelValueOf('webhook', 'https://example.com/hook', false)).to.equal('https://example.com/hook');
    });

    it('refuses a read-only key and a missing one', async () => {
      expect((await api(p.apiKeyReadonly).post('/integrations/', { kind: 'email', value: 'a@b.c' })).body.error).to.equal('wrong api key');
      expect((await api(undefined).post('/integrations/', { kind: 'email', value: 'a@b.c' })).status).to.equal(401);
      expect(await Channel.countDocuments({ projectId: p.project._id })).to.equal(0);
    });
  });

  describe('update', () => {
    it('renames, changes the value, and disables or re-enables; what is not given stays', async () => {
      const channel = await buildChannel(p, { name: 'old', kind: 'email', value: 'a@example.com' });
      const renamed = await api(p.apiKey).post(`/integrations/${channel._id}`, { name: 'new' });
      expect([renamed.status, renamed.body.name, renamed.body.settings.address]).to.deep.equal([200, 'new', 'a@example.com']);
      await api(p.apiKey).post(`/integrations/${channel._id}`, { value: 'b@example.com', disabled: true });
      expect(await stored(channel._id)).to.include({ name: 'new', value: 'b@example.com', disabled: true });
      await api(p.apiKey).post(`/integrations/${channel._id}`, { disabled: false });
      expect((await stored(channel._id)).disabled).to.equal(false);
    });

    it('changes the kind only with a value for it', async () => {
      const channel = await buildChannel(p, { kind: 'email', value: 'a@example.com' });
      const bare = await api(p.apiKey).post(`/integrations/${channel._id}`, { kind: 'slack' });
      expect([bare.status, bare.body.error]).to.deep.equal([400, 'json validation error: value is missing']);
      const res = await api(p.apiKey).post(`/integrations/${channel._id}`, { kind: 'slack', value: SLACK_URL });
      expect([res.status, res.body.kind, (await stored(channel._id)).value]).to.deep.equal([200, 'slack', SLACK_URL]);
    });

    it('refuses an invalid value and changes nothing', async () => {
      const channel = await buildChannel(p, { name: 'keep', kind: 'webhook', value: 'https://example.com/hook' });
      const res = await api(p.apiKey).post(`/integrations/${channel._id}`, { name: 'changed', value: { url_down: 'nope' } });
      expect(res.status).to.equal(400);
      expect(await stored(channel._id)).to.include({ name: 'keep', value: 'https://example.com/hook' });
    });
  });

  describe('delete', () => {
    it('deletes a channel and unassigns it from its checks', async () => {
      const channel = await buildChannel(p, { name: 'gone', kind: 'email', value: 'a@example.com' });
      const check = await buildCheck(p, { channels: [channel._id] });
      const res = await api(p.apiKey).delete(`/integrations/${channel._id}`);
      expect([res.status, res.body.id, res.body.name]).to.deep.equal([200, channel._id, 'gone']);
      expect([await stored(channel._id), (await Check.findById(check._id).lean())!.channels]).to.deep.equal([null, []]);
    });
  });

  describe('on one channel', () => {
    it("answers 404 for an unknown or malformed UUID and 403 for another project's channel, changing nothing", async () => {
      const theirs = await buildChannel(await buildProject(), { name: 'theirs', kind: 'email', value: 'a@example.com' });
      expect((await api(p.apiKey).post('/integrations/6f2e4c1a-0000-4000-8000-000000000000', { name: 'x' })).status).to.equal(404);
      expect((await api(p.apiKey).delete('/integrations/not-a-uuid')).status).to.equal(404);
      const post = await api(p.apiKey).post(`/integrations/${theirs._id}`, { name: 'mine' });
      const del = await api(p.apiKey).delete(`/integrations/${theirs._id}`);
      expect([post.status, post.body.error, del.status]).to.deep.equal([403, 'channel belongs to another project', 403]);
      expect(await stored(theirs._id)).to.include({ name: 'theirs' });
    });

    it('reads one channel with its settings', async () => {
      const channel = await buildChannel(p, { name: 'one', kind: 'email', value: 'a@example.com' });
      const res = await api(p.apiKey).get(`/integrations/${channel._id}`);
      expect([res.status, res.body.name, res.body.settings.address]).to.deep.equal([200, 'one', 'a@example.com']);
    });

    it('refuses a read-only key', async () => {
      const channel = await buildChannel(p, { kind: 'email', value: 'a@example.com' });
      expect((await api(p.apiKeyReadonly).get('/integrations/')).status).to.equal(401);
      expect((await api(p.apiKeyReadonly).delete(`/integrations/${channel._id}`)).status).to.equal(401);
      expect(await stored(channel._id)).to.not.equal(null);
    });
  });
});

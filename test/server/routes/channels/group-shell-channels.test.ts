import { expect } from 'chai';
import { buildChannel, buildProject, type TestProject } from '../../../helpers/factories.js';
import { Channel, type ChannelDoc } from '../../../../shared/models/channel.js';
import { createChannel } from '../../../../shared/services/channels.js';
import { channelValueOf } from '../../../../server/services/channel-input.js';
import { AppError } from '../../../../shared/errors.js';
import { api } from '../support.js';

const UNKNOWN = '6f2e4c1a-0000-4000-8000-000000000000';
const stored = async (id: string): Promise<ChannelDoc> => (await Channel.findById(id).lean<ChannelDoc>())!;

describe('group and shell channels through the API and hc-admin', () => {
  let p: TestProject;
  let member: ChannelDoc;
  beforeEach(async () => {
    p = await buildProject();
    member = await buildChannel(p, { name: 'ops mail', kind: 'email', value: 'ops@example.com' });
  });

  describe('group', () => {
    it('creates a group of channels of the project, from UUIDs as text or a list', async () => {
      const other = await buildChannel(p, { kind: 'webhook', value: 'https://example.com/hook' });
      const plain = await api(p.apiKey).post('/integrations/', { kind: 'group', name: 'all', value: `${member._id},${other._id}` });
      expect([plain.status, plain.body.settings.channels]).to.deep.equal([201, [member._id, other._id]]);
      expect((await stored(plain.body.id)).value).to.equal(`${member._id},${other._id}`);
      const json = await api(p.apiKey).post('/integrations/', { kind: 'group', value: { channels: [other._id] } });
      expect([json.status, json.body.settings.channels]).to.deep.equal([201, [other._id]]);
    });

    it("refuses an unknown UUID, another project's channel and a group as members, and stores nothing", async () => {
      const theirs = await buildChannel(await buildProject(), { kind: 'email', value: 'a@example.com' });
      const inner = await buildChannel(p, { kind: 'group', value: member._id });
      const cases: [string, string][] = [
        [UNKNOWN, `member ${UNKNOWN} is not a channel of this project`],
        [theirs._id, `member ${theirs._id} is not a channel of this project`],
        [inner._id, `member ${inner._id} is a group (groups do not nest)`],
        ['not-a-uuid', '"channels[1]" must be a valid GUID'],
      ];
      for (const [id, problem] of cases) {
        const res = await api(p.apiKey).post('/integrations/', { kind: 'group', value: `${member._id},${id}` });
        expect([res.status, res.body.error], id).to.deep.equal([400, `json validation error: invalid channel value: ${problem}`]);
      }
      expect(await Channel.countDocuments({ projectId: p.project._id })).to.equal(2);
    });

    it('refuses, on an update, a group naming itself, also when a channel becomes a group', async () => {
      const group = await buildChannel(p, { kind: 'group', value: member._id });
      const self = await api(p.apiKey).post(`/integrations/${group._id}`, { value: `${member._id},${group._id}` });
      expect([self.status, self.body.error]).to.deep.equal([400, `json validation error: invalid channel value: member ${group._id} is the group itself`]);
      const hook = await buildChannel(p, { kind: 'webhook', value: 'https://example.com/hook' });
      const becoming = await api(p.apiKey).post(`/integrations/${hook._id}`, { kind: 'group', value: { channels: [hook._id] } });
      expect([becoming.status, becoming.body.error]).to.deep.equal([400, `json validation error: invalid channel value: member ${hook._id} is the group itself`]);
      expect([(await stored(group._id)).value, (await stored(hook._id)).kind]).to.deep.equal([member._id, 'webhook']);
      const ok = await api(p.apiKey).post(`/integrations/${hook._id}`, { kind: 'group', value: member._id });
      expect([ok.status, ok.body.kind]).to.deep.equal([200, 'group']);
    });

    it('is refused the same way by hc-admin channel create (createChannel)', async () => {
      const inner = await buildChannel(p, { kind: 'group', value: member._id });
      const create = (value: string) => createChannel({ projectId: p.project._id, kind: 'group', name: 'g', value });
      for (const [value, problem] of [[UNKNOWN, 'is not a channel of this project'], [inner._id, 'is a group (groups do not nest)']]) {
        const err = await create(value).then(() => null, (e: unknown) => e as AppError);
        expect([err?.status, err?.message]).to.deep.equal([400, `invalid channel value: member ${value} ${problem}`]);
      }
      expect((await create(member._id)).kind).to.equal('group');
    });
  });

  describe('shell', () => {
    it('is refused unless SHELL_ENABLED, and stores nothing', async () => {
      const res = await api(p.apiKey).post('/integrations/', { kind: 'shell', value: { cmd_down: 'logger down', cmd_up: '' } });
      expect([res.status, res.body.error]).to.deep.equal([400, 'json validation error: shell commands are not enabled on this server (SHELL_ENABLED)']);
      const update = await api(p.apiKey).post(`/integrations/${member._id}`, { kind: 'shell', value: 'logger down' });
      expect(update.status).to.equal(400);
      expect([await Channel.countDocuments({ kind: 'shell' }), (await stored(member._id)).kind]).to.deep.equal([0, 'email']);
    });

    it('takes the commands when SHELL_ENABLED', () => {
      expect(channelValueOf('shell', { cmd_down: 'logger down' }, false, true)).to.equal('{"cmd_down":"logger down"}');
      expect(channelValueOf('shell', 'logger $NAME', false, true)).to.equal('logger $NAME');
      expect(() => channelValueOf('shell', { cmd_down: 42 }, false, true)).to.throw('json validation error: invalid channel value: "cmd_down" must be a string');
    });
  });
});

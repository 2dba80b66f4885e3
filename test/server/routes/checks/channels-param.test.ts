import { expect } from 'chai';
import { buildChannel, buildCheck, buildProject, type TestProject } from '../../../helpers/factories.js';
import { Check } from '../../../../shared/models/check.js';
import { api } from '../support.js';

describe('the channels parameter (docs/api-reference.md, "Assigning integrations")', () => {
  let p: TestProject;
  beforeEach(async () => {
    p = await buildProject();
  });

  const update = async (channels: string, preset: string[] = []) => {
    const check = await buildCheck(p, { channels: preset });
    const res = await api(p.apiKey).post(`/checks/${check._id}`, { channels });
    return { res, stored: (await Check.findById(check._id).lean())?.channels };
  };

  it('assigns channels by UUID', async () => {
    const channel = await buildChannel(p);
    const { res } = await update(channel._id);
    expect(res.body.channels).to.equal(channel._id);
  });

  it('assigns channels by exact name, whitespace included', async () => {
    const channel = await buildChannel(p, { name: ' Ops ' });
    const { res } = await update(' Ops ');
    expect(res.body.channels).to.equal(channel._id);
  });

  it('does not trim tokens', async () => {
    await buildChannel(p, { name: 'Ops' });
    const { res } = await update('Ops, Ops');
    expect(res.body.error).to.equal('invalid channel identifier:  Ops');
  });

  it('assigns a repeated token once', async () => {
    const channel = await buildChannel(p, { name: 'Ops' });
    const { stored } = await update(`Ops,${channel._id}`);
    expect(stored).to.deep.equal([channel._id]);
  });

  it('matches a name formatted as a UUID as a name', async () => {
    const channel = await buildChannel(p, { name: '7918b17b-a745-4db1-8575-9d2e07c97f79' });
    const { res } = await update('7918b17b-a745-4db1-8575-9d2e07c97f79');
    expect(res.body.channels).to.equal(channel._id);
  });

  it('unassigns all with an empty string', async () => {
    const channel = await buildChannel(p);
    const { res } = await update('', [channel._id]);
    expect(res.body.channels).to.equal('');
  });

  it('rejects an empty token', async () => {
    await buildChannel(p, { name: 'a' });
    const { res } = await update('a,,a');
    expect([res.status, res.body.error]).to.deep.equal([400, 'empty channel identifier']);
  });

  it('rejects a lone comma as an empty token', async () => {
    const { res } = await update(',');
    expect(res.body.error).to.equal('empty channel identifier');
  });

  it('rejects an unknown token without the json validation prefix', async () => {
    const { res } = await update('nope');
    expect([res.status, res.body.error]).to.deep.equal([400, 'invalid channel identifier: nope']);
  });

  it("treats another project's channel as unknown", async () => {
    const foreign = await buildChannel(await buildProject());
    const { res } = await update(foreign._id);
    expect(res.body.error).to.equal(`invalid channel identifier: ${foreign._id}`);
  });

  it('rejects a name shared by two channels', async () => {
    await buildChannel(p, { name: 'Ops' });
    await buildChannel(p, { name: 'Ops' });
    const { res } = await update('Ops');
    expect(res.body.error).to.equal('non-unique channel identifier: Ops');
  });

  it("rejects a token equal to one channel's UUID and another's name", async () => {
    const a = await buildChannel(p);
    await buildChannel(p, { name: a._id });
    const { res } = await update(a._id);
    expect(res.body.error).to.equal(`non-unique channel identifier: ${a._id}`);
  });

  it('reports the first bad token from the left', async () => {
    const { res } = await update('x,,y');
    expect(res.body.error).to.equal('invalid channel identifier: x');
  });

  it('leaves the check unchanged when a token is bad', async () => {
    const channel = await buildChannel(p);
    const check = await buildCheck(p, { name: 'keep', channels: [channel._id] });
    await api(p.apiKey).post(`/checks/${check._id}`, { name: 'changed', channels: 'nope' });
    expect(await Check.findById(check._id).lean()).to.include({ name: 'keep' }).and.have.deep.property('channels', [channel._id]);
  });
});

import { expect } from 'chai';
import { Channel } from '../../../shared/models/channel.js';
import { Check } from '../../../shared/models/check.js';
import { buildChannel, buildCheck, buildProject } from '../../helpers/factories.js';
import { jsonOf, runCli, stderrLines } from './run-cli.js';

describe('hc-admin channel delete', () => {
  it('deletes the channel and prints its id, name and kind', async () => {
    const channel = await buildChannel(await buildProject(), { name: 'Ops' });
    const result = await runCli(['channel', 'delete', '--id', channel._id]);
    expect(result.code, result.stderr).to.equal(0);
    expect(jsonOf(result)).to.deep.equal({ id: channel._id, name: 'Ops', kind: 'email' });
    expect(await Channel.countDocuments()).to.equal(0);
  });

  it("removes the channel from checks' channels and keeps the others", async () => {
    const project = await buildProject();
    const [gone, kept] = [await buildChannel(project), await buildChannel(project)];
    const check = await buildCheck(project, { channels: [gone._id, kept._id] });
    await runCli(['channel', 'delete', '--id', gone._id]);
    const stored = await Check.findById(check._id).lean();
    expect(stored?.channels).to.deep.equal([kept._id]);
  });

  it('exits 1 with one line on stderr for an unknown channel', async () => {
    const result = await runCli(['channel', 'delete', '--id', 'nope']);
    expect(result.code).to.equal(1);
    expect(result.stdout).to.equal('');
    expect(stderrLines(result)).to.deep.equal(['hc-admin: channel not found: nope']);
  });
});

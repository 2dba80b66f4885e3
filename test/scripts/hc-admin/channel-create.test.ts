import { expect } from 'chai';
import { Channel } from '../../../shared/models/channel.js';
import { buildProject } from '../../helpers/factories.js';
import { jsonOf, runCli, stderrLines } from './run-cli.js';

function createArgs(projectId: string, kind = 'email', value = 'ops@example.org'): string[] {
  return ['channel', 'create', '--project', projectId, '--kind', kind, '--name', 'Ops', '--value', value];
}

describe('hc-admin channel create', () => {
  it('prints the id, name and kind of the new channel', async () => {
    const project = await buildProject();
    const result = await runCli(createArgs(project.project._id));
    expect(result.code, result.stderr).to.equal(0);
    const printed = jsonOf(result) as Record<string, string>;
    expect(Object.keys(printed)).to.have.members(['id', 'name', 'kind']);
    expect(printed).to.include({ name: 'Ops', kind: 'email' });
  });

  it('stores the channel with its value in the project', async () => {
    const project = await buildProject();
    const printed = jsonOf(await runCli(createArgs(project.project._id))) as { id: string };
    const channel = await Channel.findById(printed.id).lean();
    expect(channel?.projectId).to.equal(project.project._id);
    expect(channel?.value).to.equal('ops@example.org');
  });

  it('exits 1 with one line on stderr for an unknown project', async () => {
    const result = await runCli(createArgs('6f0c3d5e-0000-4000-8000-000000000000'));
    expect(result.code).to.equal(1);
    expect(result.stdout).to.equal('');
    expect(stderrLines(result)).to.deep.equal(['hc-admin: project not found: 6f0c3d5e-0000-4000-8000-000000000000']);
  });

  it('exits 2 with one line on stderr for an unknown kind', async () => {
    const project = await buildProject();
    const result = await runCli(createArgs(project.project._id, 'carrier-pigeon'));
    expect(result.code).to.equal(2);
    expect(stderrLines(result)).to.deep.equal(['hc-admin: unknown channel kind: carrier-pigeon']);
    expect(await Channel.countDocuments()).to.equal(0);
  });

  it('exits 2 with one line on stderr when --value is missing', async () => {
    const project = await buildProject();
    const result = await runCli(createArgs(project.project._id).slice(0, -2));
    expect(result.code).to.equal(2);
    expect(stderrLines(result)).to.deep.equal(["hc-admin: required option '--value <value>' not specified"]);
  });
});

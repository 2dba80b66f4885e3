import { expect } from 'chai';
import { buildChannel, buildProject } from '../../helpers/factories.js';
import { jsonOf, runCli, stderrLines } from './run-cli.js';

describe('hc-admin channel list', () => {
  it("prints the project's channels as one JSON array, oldest first", async () => {
    const project = await buildProject();
    const newer = await buildChannel(project, { name: 'b', created: new Date('2024-02-01T00:00:00Z') });
    const older = await buildChannel(project, { name: 'a', kind: 'webhook', value: 'http://127.0.0.1/hook', created: new Date('2024-01-01T00:00:00Z') });
    const result = await runCli(['channel', 'list', '--project', project.project._id]);
    expect(result.code, result.stderr).to.equal(0);
    expect(jsonOf(result)).to.deep.equal([
      { id: older._id, name: 'a', kind: 'webhook', value: 'http://127.0.0.1/hook', disabled: false, last_error: '', last_notify: null },
      { id: newer._id, name: 'b', kind: 'email', value: 'alerts@example.org', disabled: false, last_error: '', last_notify: null },
    ]);
  });

  it("shows each channel's last delivery error, time and disabled flag", async () => {
    const project = await buildProject();
    await buildChannel(project, { lastError: 'received status code 500', lastNotify: new Date('2024-05-01T00:00:00Z'), disabled: true });
    const result = await runCli(['channel', 'list', '--project', project.project._id]);
    const [channel] = jsonOf(result) as Record<string, unknown>[];
    expect(channel).to.include({ disabled: true, last_error: 'received status code 500', last_notify: '2024-05-01T00:00:00.000Z' });
  });

  it("leaves out other projects' channels", async () => {
    const project = await buildProject();
    await buildChannel(await buildProject({ name: 'other' }));
    const result = await runCli(['channel', 'list', '--project', project.project._id]);
    expect(jsonOf(result)).to.deep.equal([]);
  });

  it('exits 1 with one line on stderr for an unknown project', async () => {
    const result = await runCli(['channel', 'list', '--project', 'nope']);
    expect(result.code).to.equal(1);
    expect(result.stdout).to.equal('');
    expect(stderrLines(result)).to.deep.equal(['hc-admin: project not found: nope']);
  });
});

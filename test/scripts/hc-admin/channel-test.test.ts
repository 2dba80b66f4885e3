import { expect } from 'chai';
import { buildChannel, buildProject } from '../../helpers/factories.js';
import { jsonBody, startReceiver, type Receiver, type Reply } from '../../helpers/receiver.js';
import { jsonOf, runCli, stderrLines, type CliResult } from './run-cli.js';

describe('hc-admin channel test', () => {
  let receiver: Receiver;
  afterEach(() => receiver.close());

  /** Runs `channel test --id <id>` for a webhook channel to a receiver answering `reply`. */
  async function run(reply: Reply, id?: string): Promise<{ result: CliResult; channelId: string }> {
    receiver = await startReceiver(() => reply);
    const channel = await buildChannel(await buildProject(), { kind: 'webhook', name: 'ops', value: `${receiver.url}/hook` });
    return { result: await runCli(['channel', 'test', '--id', id ?? channel._id]), channelId: channel._id };
  }

  it('sends a test alert for a check named TEST and prints the channel with ok: true', async () => {
    const { result, channelId } = await run({ status: 200 });
    expect(result.code, result.stderr).to.equal(0);
    expect(jsonOf(result)).to.deep.equal({ id: channelId, name: 'ops', kind: 'webhook', ok: true });
    expect(jsonBody(receiver.requests[0])).to.include({ name: 'TEST', status: 'down' });
  });

  it('exits 1 with the delivery error when the provider refuses', async () => {
    const { result } = await run({ status: 500, body: 'down for maintenance' });
    expect([result.code, result.stdout]).to.deep.equal([1, '']);
    expect(stderrLines(result)).to.deep.equal(['hc-admin: test notification failed: received status code 500: down for maintenance']);
  });

  it('exits 1 with one line on stderr for an unknown channel', async () => {
    const { result } = await run({ status: 200 }, 'nope');
    expect(result.code).to.equal(1);
    expect(stderrLines(result)).to.deep.equal(['hc-admin: channel not found: nope']);
  });
});

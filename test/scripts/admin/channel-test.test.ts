import { expect } from 'chai';
import { Command } from 'commander';
import { registerChannelTest } from '../../../scripts/admin/channel-test.js';
import { AppError } from '../../../shared/errors.js';
import { buildChannel, buildProject } from '../../helpers/factories.js';
import { jsonBody, startReceiver, type Receiver, type Reply } from '../../helpers/receiver.js';

describe('hc-admin channel test', () => {
  let receiver: Receiver;
  let printed: unknown[];
  afterEach(() => receiver.close());

  /** Runs `channel test --id <id>` in-process on the test database. */
  async function run(reply: Reply, id?: string): Promise<string> {
    receiver = await startReceiver(() => reply);
    const channel = await buildChannel(await buildProject(), { kind: 'webhook', name: 'ops', value: `${receiver.url}/hook` });
    const program = new Command().exitOverride();
    printed = [];
    registerChannelTest(program, { session: (work) => work(), print: (value) => printed.push(value) });
    await program.parseAsync(['channel', 'test', '--id', id ?? channel._id], { from: 'user' });
    return channel._id;
  }

  it('sends a test alert for a check named TEST and prints the channel with ok: true', async () => {
    const id = await run({ status: 200 });
    expect(jsonBody(receiver.requests[0])).to.include({ name: 'TEST', status: 'down' });
    expect(printed).to.deep.equal([{ id, name: 'ops', kind: 'webhook', ok: true }]);
  });

  it('fails with the delivery error when the provider refuses', async () => {
    const err = await run({ status: 500, body: 'down for maintenance' }).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(AppError);
    expect((err as AppError).message).to.equal('test notification failed: received status code 500: down for maintenance');
  });

  it('fails with 404 for an unknown channel', async () => {
    const err = await run({ status: 200 }, 'b7e1f0c2-0000-4000-8000-000000000000').catch((e: unknown) => e);
    expect([(err as AppError).status, (err as AppError).message]).to.deep.equal([404, 'channel not found: b7e1f0c2-0000-4000-8000-000000000000']);
  });
});

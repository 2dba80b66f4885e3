import { expect } from 'chai';
import { deliver } from '../../../../shared/notify/deliver.js';
import { validateChannelValue } from '../../../../shared/notify/kinds.js';
import { DeliveryError } from '../../../../shared/notify/types.js';
import type { ChannelDoc } from '../../../../shared/models/channel.js';
import { jsonBody, startReceiver, type Receiver } from '../../../helpers/receiver.js';
import { sampleAlert, testNotifyConfig } from '../../../helpers/alerts.js';
import { buildChannel, buildProject, type TestProject } from '../../../helpers/factories.js';

describe('group provider', () => {
  let receiver: Receiver;
  let p: TestProject;
  beforeEach(async () => {
    // `/fail…` answers 500 (retryable), `/gone…` 404 (not retryable), anything else 200.
    receiver = await startReceiver((_n, req) => ({ status: req.url.startsWith('/fail') ? 500 : req.url.startsWith('/gone') ? 404 : 200 }));
    p = await buildProject();
  });
  afterEach(() => receiver.close());

  const hook = (path: string, fields: Partial<ChannelDoc> = {}) => buildChannel(p, { kind: 'webhook', value: `${receiver.url}${path}`, ...fields });
  const groupOf = (members: ChannelDoc[]) => ({ kind: 'group', value: members.map((m) => m._id).join(','), projectId: p.project._id });
  const send = (members: ChannelDoc[], alert = sampleAlert()) => deliver(groupOf(members), alert, testNotifyConfig(receiver.url));
  const failure = (promise: Promise<void>) => promise.then(() => null, (e: unknown) => e as DeliveryError);
  const paths = () => receiver.requests.map((r) => r.url).sort();

  it('takes comma-separated UUIDs as a plain value and refuses what is not one', () => {
    const [a, b] = ['6f2e4c1a-0000-4000-8000-000000000001', '6f2e4c1a-0000-4000-8000-000000000002'];
    expect(validateChannelValue('group', ` ${a}, ${b} `)).to.equal(`${a}, ${b}`);
    expect(() => validateChannelValue('group', 'not-a-uuid')).to.throw(/"channels\[0\]" must be a valid GUID/);
    expect(() => validateChannelValue('group', JSON.stringify({ channels: [] }))).to.throw(/must contain at least 1 items/);
  });

  it('delivers the alert to every member through its own settings', async () => {
    await send([await hook('/one'), await hook('/two')]);
    expect(paths()).to.deep.equal(['/one', '/two']);
    expect(receiver.requests.map((r) => jsonBody(r).uuid)).to.deep.equal([sampleAlert().checkId, sampleAlert().checkId]);
  });

  it("skips disabled members, groups, other projects' channels, unknown UUIDs and members silent on the status", async () => {
    const sent = await hook('/sent');
    const disabled = await hook('/disabled', { disabled: true });
    const inner = await buildChannel(p, { kind: 'group', value: sent._id });
    const theirs = await buildChannel(await buildProject(), { kind: 'webhook', value: `${receiver.url}/theirs` });
    const upOnly = await hook('', { value: JSON.stringify({ url_up: `${receiver.url}/up-only` }) });
    const unknown = { ...sent, _id: '6f2e4c1a-0000-4000-8000-000000000000' };
    await send([sent, disabled, inner, theirs, upOnly, unknown]);
    expect(paths()).to.deep.equal(['/sent']);
  });

  it('fails, retryable, when a member fails retryably, naming the members and their errors', async () => {
    const ok = await hook('/ok');
    const broken = await hook('/fail', { name: 'flaky' });
    const gone = await hook('/gone');
    const err = await failure(send([ok, broken, gone]));
    expect(err).to.be.instanceOf(DeliveryError);
    expect(err!.message).to.match(/^2 out of 3 notifications failed: /);
    expect(err!.message).to.include(`flaky (${broken._id}): `).and.include(`webhook (${gone._id}): `);
    expect([err!.retryable, err!.permanent]).to.deep.equal([true, false]);
    expect(paths()).to.deep.equal(['/fail', '/gone', '/ok']);
  });

  it('fails without retry when no member error is retryable', async () => {
    const err = await failure(send([await hook('/ok'), await hook('/gone')]));
    expect(err!.message).to.match(/^1 out of 2 notifications failed: webhook \(.*\): .*404/);
    expect(err!.retryable).to.equal(false);
  });

  it('fails without retry when it is not told its project', async () => {
    const err = await failure(deliver({ kind: 'group', value: (await hook('/one'))._id }, sampleAlert(), testNotifyConfig(receiver.url)));
    expect([err!.message, err!.retryable]).to.deep.equal(['a group needs its project to find its members', false]);
    expect(receiver.requests).to.have.length(0);
  });
});

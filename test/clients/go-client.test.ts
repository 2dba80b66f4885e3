import { expect } from 'chai';
import { buildChannel, buildProject } from '../helpers/factories.js';
import { clearDb, testContext } from '../helpers/hooks.js';
import { goClient, run, stepsOf, type RunResult, type Step } from '../helpers/clients.js';
import { startInstance, type Instance } from '../helpers/instance.js';

/** One run of test/clients/go (go-healthchecksio v2.1.0) and what it left behind. */
interface ClientRun {
  result: RunResult;
  steps: Map<string, Step>;
  channelId: string;
  /** Read back through /api/v3/ right after the run. */
  state: { simple: Record<string, any>; cronStatus: number };
}

/** v1 is the path the Terraform provider configures by default; v3 is the current one. */
const VERSIONS = [1, 3] as const;

async function api(instance: Instance, apiKey: string, path: string): Promise<Response> {
  return fetch(`${instance.baseUrl}/api/v3${path}`, { headers: { 'X-Api-Key': apiKey } });
}

async function runClient(binary: string, instance: Instance, version: number): Promise<ClientRun> {
  const p = await buildProject();
  const channel = await buildChannel(p, { name: 'ops' });
  const args = ['-base-url', `${instance.baseUrl}/api/v${version}`, '-api-key', p.apiKey];
  const result = await run(binary, args, { timeoutMs: 60_000 });
  const steps = stepsOf(result.stdout);
  const simple = await (await api(instance, p.apiKey, `/checks/${steps.get('done')?.simple}`)).json();
  const cronStatus = (await api(instance, p.apiKey, `/checks/${steps.get('create_cron')?.id}`)).status;
  return { result, steps, channelId: channel._id, state: { simple, cronStatus } };
}

describe('go-healthchecksio v2.1.0 (the Terraform provider client), unchanged, against the live web and worker', () => {
  const runs = new Map<number, ClientRun>();

  before(async function () {
    this.timeout(600_000);
    const binary = await goClient();
    await Promise.all([clearDb(), testContext().redis.flushdb()]);
    const instance = await startInstance();
    try {
      for (const version of VERSIONS) runs.set(version, await runClient(binary, instance, version));
    } finally {
      await instance.stop();
    }
  });

  for (const version of VERSIONS) {
    describe(`at /api/v${version}`, () => {
      const got = (): ClientRun => runs.get(version)!;
      const step = (name: string): Step => got().steps.get(name) ?? expect.fail(`no step ${name}:\n${got().result.stderr}`);

      it('runs every call and exits 0 with nothing on stderr', () => {
        expect([got().result.code, got().result.stderr]).to.deep.equal([0, '']);
        expect(step('done')).to.have.property('simple');
      });

      it('lists channels', () => {
        expect(step('get_all_channels').channels).to.deep.equal([{ id: got().channelId, kind: 'email', name: 'ops' }]);
      });

      it('creates a simple check, takes its id from update_url, and the upsert returns the same check', () => {
        const { check, id } = step('create');
        expect(check).to.include({ name: 'Terraform Simple', tags: 'tf prod', timeout: 600, grace: 120, status: 'new' });
        expect(check.channels).to.equal(got().channelId);
        expect(check.update_url).to.match(new RegExp(`/api/v${version}/checks/${id}$`));
        expect(step('create_upsert').id).to.equal(id);
      });

      it(version === 1 ? 'gets the slug derived from the name' : 'gets no slug derived from the name', () => {
        expect(step('create').check.slug).to.equal(version === 1 ? 'terraform-simple' : undefined);
      });

      it('creates a cron check with its schedule, time zone and explicit slug', () => {
        const { check } = step('create_cron');
        expect(check).to.include({ schedule: '0 3 * * 1-5', tz: 'America/New_York', slug: 'tf-cron', grace: 3600 });
      });

      it('lists, updates, pauses and deletes', () => {
        expect(step('get_all').names).to.deep.equal(['Terraform Simple', 'Terraform Cron']);
        expect(step('update').check).to.include({ desc: 'updated', grace: 300, timeout: 600 });
        expect(step('pause').check.status).to.equal('paused');
        expect(step('delete').id).to.equal(step('create_cron').id);
      });

      it('reports the API errors it meets', () => {
        expect(step('delete_again').error).to.include('404 Not Found');
        expect(step('create_invalid').error).to.include('json validation error: timeout is too large');
      });

      it('leaves the state it reported, read back through /api/v3/', () => {
        const { simple, cronStatus } = got().state;
        expect(simple).to.include({ name: 'Terraform Simple', desc: 'updated', grace: 300, channels: '' });
        expect(cronStatus).to.equal(404);
      });
    });
  }
});

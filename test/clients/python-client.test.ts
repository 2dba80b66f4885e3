import { expect } from 'chai';
import { buildChannel, buildCheck, buildProject } from '../helpers/factories.js';
import { clearDb, testContext } from '../helpers/hooks.js';
import { pythonClient, REPO_ROOT, run, stepsOf, type RunResult, type Step } from '../helpers/clients.js';
import { startInstance, type Instance } from '../helpers/instance.js';

/** One run of test/clients/python/run_client.py and what it left behind. */
interface ClientRun {
  result: RunResult;
  steps: Map<string, Step>;
  channelId: string;
  /** Read back through /api/v3/ right after the run. */
  state: { checks: Array<Record<string, any>>; backupPings: Array<Record<string, any>>; firstBody: string; cronStatus: number };
}

const SETTINGS = [
  { label: 'default settings (it speaks /api/v1/)', version: 1, flag: [] as string[] },
  { label: 'api_version=3', version: 3, flag: ['--api-version', '3'] },
];
const MODES = ['sync', 'async'] as const;

async function api(instance: Instance, apiKey: string, path: string): Promise<Response> {
  return fetch(`${instance.baseUrl}/api/v3${path}`, { headers: { 'X-Api-Key': apiKey } });
}

/**
 * Runs the client with a fresh project: one channel, two checks sharing the slug `twin`, and in v3 (where the
 * client cannot set a slug) a check with the slug `backup-job` for the ping-by-slug helpers.
 */
async function runClient(python: string, instance: Instance, version: number, flag: string[], mode: string): Promise<ClientRun> {
  const p = await buildProject();
  const channel = await buildChannel(p, { name: 'ops' });
  await buildCheck(p, { name: 'Twin A', slug: 'twin' });
  await buildCheck(p, { name: 'Twin B', slug: 'twin' });
  if (version === 3) await buildCheck(p, { name: 'Slug Target', slug: 'backup-job' });
  // `--name=value`: a random key may start with "-", which argparse would take for an option.
  const args = [`${REPO_ROOT}test/clients/python/run_client.py`, `--base-url=${instance.baseUrl}`, `--api-key=${p.apiKey}`,
    `--read-key=${p.apiKeyReadonly}`, `--ping-key=${p.pingKey}`, '--slug=backup-job', '--ambiguous-slug=twin',
    `--mode=${mode}`, ...flag];
  const result = await run(python, args, { timeoutMs: 60_000 });
  const steps = stepsOf(result.stdout);
  const backup = steps.get('done')?.backup;
  const checks = (await (await api(instance, p.apiKey, '/checks/')).json()).checks;
  const backupPings = (await (await api(instance, p.apiKey, `/checks/${backup}/pings/`)).json()).pings;
  const firstBody = await (await api(instance, p.apiKey, `/checks/${backup}/pings/1/body`)).text();
  const cronStatus = (await api(instance, p.apiKey, `/checks/${steps.get('done')?.cron}`)).status;
  return { result, steps, channelId: channel._id, state: { checks, backupPings, firstBody, cronStatus } };
}

describe('healthchecks-io 0.4.4 from PyPI, unchanged, against the live web and worker', () => {
  const runs = new Map<string, ClientRun>();

  before(async function () {
    this.timeout(600_000);
    const python = await pythonClient();
    await Promise.all([clearDb(), testContext().redis.flushdb()]);
    const instance = await startInstance();
    try {
      for (const { version, flag } of SETTINGS) {
        for (const mode of MODES) runs.set(`${version}-${mode}`, await runClient(python, instance, version, flag, mode));
      }
    } finally {
      await instance.stop();
    }
  });

  for (const { label, version } of SETTINGS) {
    for (const mode of MODES) {
      describe(`${mode} client, ${label}`, () => {
        const got = (): ClientRun => runs.get(`${version}-${mode}`)!;
        const step = (name: string): Step => got().steps.get(name) ?? expect.fail(`no step ${name}:\n${got().result.stderr}`);
        const v1 = version === 1;

        it('runs every call and exits 0 with nothing on stderr', () => {
          expect([got().result.code, got().result.stderr]).to.deep.equal([0, '']);
          expect(step('done')).to.have.property('backup');
        });

        it(`sends its requests to /api/v${version}/ and gets /api/v${version}/ URLs back`, () => {
          expect(step('client').api_url).to.match(new RegExp(`/api/v${version}/$`));
          expect(step('create_check').check.update_url).to.include(`/api/v${version}/checks/${step('done').backup}`);
        });

        it('creates a check with its fields and channels, and the upsert returns the same check', () => {
          const { check } = step('create_check');
          expect(check).to.include({ name: 'Backup Job', tags: 'prod db', timeout: 3600, grace: 120, status: 'new' });
          expect(check.channels).to.equal(got().channelId);
          expect(step('create_check_upsert').check.uuid).to.equal(check.uuid);
        });

        it(v1 ? 'gets the slug derived from the name' : 'gets no slug derived from the name', () => {
          expect(step('create_check').check.slug).to.equal(v1 ? 'backup-job' : '');
        });

        it('lists checks filtered by tags, and reads one by unique_key with the read-only key', () => {
          expect(step('get_checks_tag').names).to.deep.equal(['Backup Job', 'Cron Job']);
          expect(step('get_checks_tags').names).to.deep.equal(['Backup Job']);
          const byKey = step('get_check_unique_key').check;
          expect([byKey.name, byKey.uuid, byKey.update_url]).to.deep.equal(['Backup Job', null, null]);
          expect(byKey.unique_key).to.have.length(40);
        });

        it('updates only the given fields', () => {
          expect(step('update_check').check).to.include({ desc: 'updated', grace: 300, tags: 'prod db nightly', timeout: 3600 });
        });

        it(v1 ? 'sees a run in progress as started' : 'sees a run in progress as up', () => {
          expect(step('get_check_started').check.status).to.equal(v1 ? 'started' : 'up');
        });

        it('moves the check with every ping helper and CheckTrap', () => {
          for (const name of ['success_ping', 'start_ping', 'fail_ping', 'exit_code_ping', 'exit_code_ping_fail', 'success_ping_slug']) {
            expect(step(name).result, name).to.deep.equal([true, 'OK']);
          }
          expect(step('get_check_down').check.status).to.equal('down');
          expect(step('check_trap_success').check.status).to.equal('up');
          expect(step('check_trap_fail').check.status).to.equal('down');
        });

        it('lists the pings, newest first, with durations for completed runs', () => {
          const slugPings = v1 ? ['success', 'start', 'success', 'fail'] : [];
          const kinds = ['success', 'start', ...slugPings, 'fail', 'success', 'fail', 'start', 'success', 'start', 'fail'];
          const pings = step('get_check_pings').pings;
          expect(pings.map((ping: { type: string }) => ping.type)).to.deep.equal(kinds.reverse());
          expect(pings[0].user_agent).to.equal(`py-healthchecks.io${mode === 'async' ? '-async' : ''}/0.4.4`);
          expect(pings[0].duration).to.be.a('number');
        });

        it('lists flips with every filter and with the read-only key', () => {
          for (const name of ['get_check_flips', 'get_check_flips_seconds', 'get_check_flips_start_end', 'get_check_flips_read_only']) {
            expect(step(name).ups, name).to.deep.equal([0, 1, 0, 1, 0, 1]);
          }
        });

        it('lists integrations and badges', () => {
          expect(step('get_integrations').channels).to.deep.equal([{ id: got().channelId, name: 'ops', kind: 'email' }]);
          expect(step('get_badges').tags).to.deep.equal(['*', 'db', 'nightly', 'prod']);
        });

        it('pauses and deletes a check, then gets the errors it maps', () => {
          expect(step('pause_check').check.status).to.equal('paused');
          expect(step('delete_check').check).to.include({ name: 'Cron Job', status: 'paused' });
          expect(step('get_check_deleted').error).to.equal('CheckNotFoundError');
          expect(step('ping_deleted').error).to.equal('CheckNotFoundError');
          expect([step('wrong_api_key').error, step('read_only_write').error]).to.deep.equal(['HCAPIAuthError', 'HCAPIAuthError']);
          expect([step('non_unique_slug').error, step('bad_flips_query').error]).to.deep.equal(['NonUniqueSlugError', 'BadAPIRequestError']);
        });

        it('leaves the state it reported, read back through /api/v3/', () => {
          const { checks, backupPings, firstBody, cronStatus } = got().state;
          const backup = checks.find((check) => check.name === 'Backup Job');
          expect(backup).to.include({ desc: 'updated', grace: 300, status: 'down', n_pings: v1 ? 13 : 9, channels: got().channelId });
          expect(backupPings).to.have.length(backup!.n_pings);
          expect([firstBody, cronStatus]).to.deep.equal(['hello body', 404]);
          const slugTarget = checks.find((check) => check.slug === 'backup-job');
          expect(slugTarget).to.include({ n_pings: v1 ? 13 : 4, status: 'down' });
        });
      });
    }
  }
});

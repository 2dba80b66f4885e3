/** `hc-admin import healthchecks`, `import healthchecks-api` and `export healthchecks` (scripts/admin/migrate.ts) as a person runs them. */
import { expect } from 'chai';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Check } from '../../../shared/models/check.js';
import { Project } from '../../../shared/models/project.js';
import { testContext } from '../../helpers/hooks.js';
import { pendingTimer } from '../../helpers/deadlines.js';
import { buildCheck, buildProject } from '../../helpers/factories.js';
import { startRecordedReference } from '../../helpers/recorded-reference.js';
import { BACKUPS, NIGHTLY, DUMP_FILE, SECRETS } from '../../helpers/healthchecks-fixture.js';
import { jsonOf, runCli, stderrLines } from './run-cli.js';

const withRedis = () => ({ REDIS_URL: testContext().services.redisUrl, HC_REFERENCE_SECRET_KEY: SECRETS.secret_key });

async function tempFile(text: string): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'hc-import-')), 'dump.json');
  await writeFile(file, text);
  return file;
}

describe('hc-admin import healthchecks', () => {
  it('imports the dump, prints one JSON report, shows progress on stderr and schedules the deadlines', async () => {
    const result = await runCli(['import', 'healthchecks', DUMP_FILE], withRedis());
    expect(result.code, result.stderr).to.equal(0);
    const report = jsonOf(result) as any;
    expect(report.written).to.deep.include({ projects: 2, checksCreated: 7, pings: 13 });
    expect(stderrLines(result).filter((l) => /^hc-admin: checks: \d+ of \d+$/.test(l)).length).to.be.greaterThan(0);
    expect(await Check.countDocuments()).to.equal(7);
    expect(await pendingTimer(NIGHTLY)).to.not.equal(undefined);
  });

  it('writes nothing with --dry-run', async () => {
    const result = await runCli(['import', 'healthchecks', DUMP_FILE, '--dry-run'], withRedis());
    expect(result.code, result.stderr).to.equal(0);
    expect((jsonOf(result) as any).projects).to.have.length(2);
    expect(await Project.countDocuments()).to.equal(0);
  });

  it('refuses a foreign file with one line on stderr and exit status 2', async () => {
    const result = await runCli(['import', 'healthchecks', await tempFile('{"checks": []}')], withRedis());
    expect(result.code).to.equal(2);
    expect(result.stdout).to.equal('');
    expect(stderrLines(result)).to.deep.equal(['hc-admin: not a Healthchecks dump (manage.py dumpdata auth.user accounts api): the top level is not an array']);
  });

  it('refuses a missing file with one line', async () => {
    const result = await runCli(['import', 'healthchecks', '/nonexistent/dump.json'], withRedis());
    expect([result.code, stderrLines(result)]).to.deep.equal([2, ['hc-admin: cannot read /nonexistent/dump.json: ENOENT']]);
  });

  it('stops on a conflict with one line, exit status 1, having written nothing', async () => {
    const other = await buildProject();
    await buildCheck(other, { _id: NIGHTLY });
    const result = await runCli(['import', 'healthchecks', DUMP_FILE], withRedis());
    expect(result.code).to.equal(1);
    expect(stderrLines(result)).to.deep.equal([`hc-admin: nothing imported: check UUID ${NIGHTLY} is used here by project ${other.project._id}`]);
    expect(await Project.countDocuments()).to.equal(1);
  });
});

describe('hc-admin import healthchecks-api and export healthchecks', () => {
  it('imports through the Management API and lists what is to set up', async () => {
    const site = await startRecordedReference();
    try {
      const result = await runCli(['import', 'healthchecks-api', '--url', site.url, '--api-key', SECRETS.api_keys[BACKUPS].rw], withRedis());
      expect(result.code, result.stderr).to.equal(0);
      const report = jsonOf(result) as any;
      expect(report.written).to.deep.include({ checksCreated: 6 });
      expect(report.toSetUp.some((l: string) => l.includes('"Hook" (webhook)'))).to.equal(true);
    } finally {
      await site.close();
    }
  });

  it('exports a project as one JSON array of dump records', async () => {
    await runCli(['import', 'healthchecks', DUMP_FILE], withRedis());
    const result = await runCli(['export', 'healthchecks', '--project', BACKUPS]);
    expect(result.code, result.stderr).to.equal(0);
    const records = jsonOf(result) as { model: string }[];
    expect(records.filter((r) => r.model === 'api.check')).to.have.length(6);
  });
});

/** `hc-admin export healthchecks` (shared/migrate/export.ts): our data as a Healthchecks dump, read back by our import unchanged. */
import { expect } from 'chai';
import { exportProject } from '../../../shared/migrate/export.js';
import { importDump } from '../../../shared/migrate/import.js';
import { parseDump } from '../../../shared/migrate/dump.js';
import { AppError } from '../../../shared/errors.js';
import { clearDb, testContext } from '../../helpers/hooks.js';
import { http } from '../../helpers/factories.js';
import { signIn, webAgent } from '../../helpers/web.js';
import { BACKUPS, importFixture, NIGHTLY, RECORDED_AT, SECRETS } from '../../helpers/healthchecks-fixture.js';

/** What the API shows of the project with its old key: checks, and each check's pings and flips. */
async function apiView(): Promise<unknown[]> {
  const key = SECRETS.api_keys[BACKUPS].rw;
  const get = async (path: string) => (await http(() => RECORDED_AT).get(path).set('X-Api-Key', key)).body as Record<string, unknown>;
  const { checks } = (await get('/api/v3/checks/')) as { checks: { uuid: string }[] };
  const history = await Promise.all(checks.map(async (c) => [await get(`/api/v3/checks/${c.uuid}/pings/`), await get(`/api/v3/checks/${c.uuid}/flips/`)]));
  return [checks, history, await get('/api/v3/channels/')];
}

describe('export healthchecks', () => {
  beforeEach(() => importFixture());

  it('writes a dump our import reads back into the same checks, pings, flips and channels', async () => {
    const before = await apiView();
    const dump = JSON.stringify(await exportProject(BACKUPS));
    expect(parseDump(dump).checks).to.have.length(6);
    await clearDb();
    await testContext().redis.flushdb();
    const report = await importDump(dump, SECRETS.secret_key, { now: RECORDED_AT, queues: testContext().queues });
    expect(report.skipped).to.deep.equal([]);
    expect(JSON.stringify(await apiView(), null, 1)).to.equal(JSON.stringify(before, null, 1));
  });

  it('carries the people: their passwords still sign them in after the round trip', async () => {
    await signIn(webAgent(), 'bob@example.org', SECRETS.passwords['bob@example.org']);
    const dump = JSON.stringify(await exportProject(BACKUPS));
    await clearDb();
    await importDump(dump, SECRETS.secret_key, { now: RECORDED_AT, queues: testContext().queues });
    const res = await signIn(webAgent(), 'bob@example.org', SECRETS.passwords['bob@example.org']);
    expect([res.status, res.headers.location]).to.deep.equal([303, '/projects/']);
  });

  it('keeps ping bodies byte for byte', async () => {
    const records = await exportProject(BACKUPS);
    const pings = records.filter((r) => r.model === 'api.ping' && r.fields.body_raw);
    const bodies = pings.map((r) => Buffer.from(r.fields.body_raw as string, 'base64').toString());
    expect(bodies).to.include('dumped 42 tables\nsize=1.2G');
    expect(records.find((r) => r.model === 'api.check' && r.fields.code === NIGHTLY)?.fields.timeout).to.equal('01:00:00');
  });

  it('refuses an unknown project', async () => {
    const err = (await exportProject('00000000-0000-4000-8000-000000000000').catch((e: unknown) => e)) as AppError;
    expect([err.status, err.message]).to.deep.equal([404, 'no project with id 00000000-0000-4000-8000-000000000000']);
  });
});

/** `hc-admin import healthchecks-api` (shared/migrate/api-source.ts) against the Management API answers a real Healthchecks gave. */
import { expect } from 'chai';
import { readAccount } from '../../../shared/migrate/api-source.js';
import { planImport } from '../../../shared/migrate/plan.js';
import { importPlan } from '../../../shared/migrate/import.js';
import { Channel } from '../../../shared/models/channel.js';
import { Ping } from '../../../shared/models/ping.js';
import { AppError } from '../../../shared/errors.js';
import { config } from '../../../shared/config.js';
import { http } from '../../helpers/factories.js';
import { testContext } from '../../helpers/hooks.js';
import { bodyBytes } from '../../helpers/pings.js';
import { startRecordedReference, type RecordedReference } from '../../helpers/recorded-reference.js';
import { BACKUPS, NIGHTLY, RECORDED_AT, recordedJson, SECRETS } from '../../helpers/healthchecks-fixture.js';

/** Fields the API shows that an import through it keeps as they were. */
const KEPT = ['name', 'slug', 'tags', 'desc', 'grace', 'timeout', 'schedule', 'tz', 'n_pings', 'status', 'last_ping', 'next_ping', 'manual_resume', 'methods', 'uuid', 'ping_url', 'badge_url', 'start_kw', 'success_kw', 'failure_kw', 'filter_subject', 'filter_body'];
const kept = (c: Record<string, unknown>) => Object.fromEntries(KEPT.filter((k) => k in c).map((k) => [k, c[k]]));

describe('import healthchecks-api: a recording of a real Healthchecks', () => {
  let site: RecordedReference;
  const key = SECRETS.api_keys[BACKUPS].rw;
  const run = async () => {
    const read = await readAccount({ url: site.url, apiKey: key });
    return { read, report: await importPlan(planImport(read.dump, undefined), { now: RECORDED_AT, queues: testContext().queues }) };
  };

  beforeEach(async () => {
    site = await startRecordedReference();
  });
  afterEach(() => site.close());

  it('creates the checks with their UUIDs and fields; the same key lists them here', async () => {
    await run();
    const res = await http(() => RECORDED_AT).get('/api/v3/checks/').set('X-Api-Key', key);
    expect(res.status).to.equal(200);
    expect(res.body.checks.map(kept)).to.deep.equal(recordedJson('/api/v3/checks/', config.baseUrl).checks.map(kept));
    expect((await http().get(`/ping/${NIGHTLY}`)).text).to.equal('OK');
  });

  it('keeps the pings with their bodies and the flips', async () => {
    await run();
    const pings = await Ping.find({ checkId: NIGHTLY }).sort({ n: 1 }).lean();
    expect(pings.map((p) => [p.n, p.kind])).to.deep.equal([[1, 'start'], [2, 'success'], [3, 'fail'], [4, 'success'], [5, 'log']]);
    expect(bodyBytes(pings[1])?.toString()).to.equal('dumped 42 tables\nsize=1.2G');
    const flips = await http(() => RECORDED_AT).get(`/api/v3/checks/${NIGHTLY}/flips/`).set('X-Api-Key', key);
    expect(flips.status, flips.text).to.equal(200);
    // Ours is a bare array (docs/api.md), the reference's an object holding it.
    expect(flips.body).to.deep.equal(recordedJson(`/api/v3/checks/${NIGHTLY}/flips/`, config.baseUrl).flips);
  });

  it('reports the channels to set up by name, inventing none', async () => {
    const { read } = await run();
    expect(read.toSetUp.filter((line) => line.startsWith('channel '))).to.have.length(4);
    expect(read.toSetUp[0]).to.contain('"Ops mail" (email)');
    expect(await Channel.countDocuments()).to.equal(0);
  });

  it('updates what it made when run again', async () => {
    const first = await run();
    const second = await run();
    expect(second.report.projects[0].id).to.equal(first.report.projects[0].id);
    expect(second.report.written).to.deep.include({ checksCreated: 0, checksUpdated: 6, pings: 0, flips: 0 });
    expect(await Ping.countDocuments()).to.equal(first.report.written!.pings);
  });

  it('stops with one line when the site refuses the key', async () => {
    const err = (await readAccount({ url: site.url, apiKey: 'hcw_wrongwrongwrongwrongwrongwron' }).catch((e: unknown) => e)) as AppError;
    expect([err.status, err.message]).to.deep.equal([400, `${site.url} refused the API key (401)`]);
  });
});

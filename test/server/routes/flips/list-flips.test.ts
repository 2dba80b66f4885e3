import { expect } from 'chai';
import { buildCheck, buildProject, type TestProject } from '../../../helpers/factories.js';
import { uniqueKeyOf } from '../../../../shared/domain/ids.js';
import { Flip } from '../../../../shared/models/flip.js';
import type { CheckDoc, StoredStatus } from '../../../../shared/models/check.js';
import { api, fixedClock, NOW } from '../support.js';

/** UNIX seconds of NOW. */
const NOW_S = NOW.getTime() / 1000;

async function addFlip(check: CheckDoc, secondsAgo: number, newStatus: StoredStatus, oldStatus: StoredStatus = 'new'): Promise<void> {
  const created = new Date(NOW.getTime() - secondsAgo * 1000);
  await Flip.create({ checkId: check._id, created, recorded: created, processed: created, oldStatus, newStatus });
}

describe('GET /api/v3/checks/<uuid>/flips/', () => {
  let p: TestProject;
  let check: CheckDoc;
  beforeEach(async () => {
    p = await buildProject();
    check = await buildCheck(p);
  });

  const flips = (query = '', key = p.apiKey) => api(key, fixedClock()).get(`/checks/${check._id}/flips/${query}`);

  it('returns a bare array of flips, newest first, with truncated timestamps', async () => {
    await addFlip(check, 100.5, 'up');
    await addFlip(check, 50.25, 'down', 'up');
    const res = await flips();
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal([
      { timestamp: '2020-06-01T11:59:09+00:00', up: 0 },
      { timestamp: '2020-06-01T11:58:19+00:00', up: 1 },
    ]);
  });

  it('leaves out changes into paused and new', async () => {
    await addFlip(check, 30, 'paused', 'up');
    await addFlip(check, 20, 'new', 'paused');
    await addFlip(check, 10, 'up', 'new');
    expect((await flips()).body).to.have.length(1);
  });

  it('keeps flips of the last seconds with seconds=', async () => {
    await addFlip(check, 120, 'up');
    await addFlip(check, 30, 'down', 'up');
    expect((await flips('?seconds=60')).body).to.deep.equal([{ timestamp: '2020-06-01T11:59:30+00:00', up: 0 }]);
  });

  it('treats seconds=0 and an empty seconds= as no filter', async () => {
    await addFlip(check, 1000, 'up');
    expect((await flips('?seconds=0')).body).to.have.length(1);
    expect((await flips('?seconds=')).body).to.have.length(1);
  });

  it('filters start inclusively and end exclusively', async () => {
    for (const ago of [30, 20, 10]) await addFlip(check, ago, 'up');
    const res = await flips(`?start=${NOW_S - 30}&end=${NOW_S - 10}`);
    expect(res.body.map((f: { timestamp: string }) => f.timestamp)).to.deep.equal(['2020-06-01T11:59:40+00:00', '2020-06-01T11:59:30+00:00']);
  });

  it('combines seconds with start and end', async () => {
    for (const ago of [30, 20, 10]) await addFlip(check, ago, 'up');
    expect((await flips(`?seconds=25&end=${NOW_S - 10}`)).body).to.have.length(1);
  });

  for (const query of ['?seconds=abc', '?seconds=-1', '?seconds=1.5', '?seconds=31536001', '?start=', '?end=', '?start=-5', '?end=1e3', '?start=12345678901234567890', '?start=10000000001']) {
    it(`answers 400 with an empty body for ${query}`, async () => {
      const res = await flips(query);
      expect([res.status, res.text]).to.deep.equal([400, '']);
    });
  }

  it('accepts the largest start and end', async () => {
    expect((await flips('?start=10000000000&end=10000000000')).status).to.equal(200);
  });

  it('works with a read-only key', async () => {
    await addFlip(check, 10, 'up');
    expect((await flips('', p.apiKeyReadonly)).body).to.have.length(1);
  });

  it('accepts the unique_key form', async () => {
    await addFlip(check, 10, 'up');
    const res = await api(p.apiKeyReadonly).get(`/checks/${uniqueKeyOf(check._id)}/flips/`);
    expect([res.status, res.body.length]).to.deep.equal([200, 1]);
  });

  it("answers 404 for an unknown check and 403 for another project's", async () => {
    const foreign = await buildCheck(await buildProject());
    const unknown = await api(p.apiKey).get('/checks/7918b17b-a745-4db1-8575-9d2e07c97f79/flips/');
    const other = await api(p.apiKey).get(`/checks/${foreign._id}/flips/`);
    expect([unknown.status, other.status, other.text]).to.deep.equal([404, 403, '']);
  });

  it('checks the key before the query', async () => {
    const res = await api(undefined).get(`/checks/${check._id}/flips/?seconds=x`);
    expect(res.status).to.equal(401);
  });

  it('answers 405 to POST', async () => {
    const res = await api(p.apiKey).post(`/checks/${check._id}/flips/`, {});
    expect([res.status, res.text]).to.deep.equal([405, '']);
  });
});

import { expect } from 'chai';
import { buildCheck, buildProject, type TestProject } from '../../../helpers/factories.js';
import { Check, type CheckDoc } from '../../../../shared/models/check.js';
import { storedCheck } from '../../../helpers/pings.js';
import { api } from '../support.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/** `depends_on` of POST /api/v3/checks/ and POST /api/v3/checks/<uuid> (docs/alerting-rules.md). */
describe('depends_on in the check API', () => {
  let p: TestProject;
  let router: CheckDoc;
  beforeEach(async () => {
    p = await buildProject();
    router = await buildCheck(p, { name: 'router' });
  });
  const refused = (res: { status: number; body: unknown }, problem: string) =>
    expect([res.status, res.body]).to.deep.equal([400, { error: `json validation error: depends_on ${problem}` }]);

  it('creates a dependent check and returns depends_on to a read-write key only', async () => {
    const res = await api(p.apiKey).post('/checks/', { name: 'job', depends_on: [router._id, router._id] });
    expect([res.status, res.body.depends_on]).to.deep.equal([201, [router._id]]);
    expect((await storedCheck(res.body.uuid as string)).dependsOn).to.deep.equal([router._id]);
    const ro = await api(p.apiKeyReadonly).get(`/checks/${res.body.uuid}`);
    expect(ro.body).to.not.have.property('depends_on');
  });

  it('clears it with [] or null (the key then gone)', async () => {
    for (const value of [[], null]) {
      const job = await buildCheck(p, { dependsOn: [router._id] });
      const res = await api(p.apiKey).post(`/checks/${job._id}`, { depends_on: value });
      expect([res.status, 'depends_on' in res.body, (await storedCheck(job._id)).dependsOn]).to.deep.equal([200, false, null]);
    }
  });

  it('refuses a check of another project, changing nothing', async () => {
    const other = await buildCheck(await buildProject());
    refused(await api(p.apiKey).post('/checks/', { name: 'job', depends_on: [other._id] }), `names a check of another project: ${other._id}`);
    expect(await Check.countDocuments({ projectId: p.project._id })).to.equal(1);
  });

  it('refuses an unknown UUID, changing nothing', async () => {
    refused(await api(p.apiKey).post(`/checks/${router._id}`, { name: 'x', depends_on: [UNKNOWN] }), `names an unknown check: ${UNKNOWN}`);
    expect(await storedCheck(router._id)).to.include({ name: 'router', rev: 0 });
  });

  it('refuses the check itself', async () => {
    refused(await api(p.apiKey).post(`/checks/${router._id}`, { depends_on: [router._id] }), 'names the check itself');
    expect((await storedCheck(router._id)).dependsOn).to.equal(undefined);
  });

  it('refuses closing a cycle, directly or through another check', async () => {
    const job = await buildCheck(p, { dependsOn: [router._id] });
    const step = await buildCheck(p, { dependsOn: [job._id] });
    refused(await api(p.apiKey).post(`/checks/${router._id}`, { depends_on: [job._id] }), 'closes a cycle');
    refused(await api(p.apiKey).post(`/checks/${router._id}`, { depends_on: [step._id] }), 'closes a cycle');
    expect((await storedCheck(router._id)).rev).to.equal(0);
  });

  it('accepts a diamond (two paths to one parent), which is no cycle', async () => {
    const a = await buildCheck(p, { dependsOn: [router._id] });
    const b = await buildCheck(p, { dependsOn: [router._id] });
    const res = await api(p.apiKey).post('/checks/', { depends_on: [a._id, b._id, router._id] });
    expect(res.status).to.equal(201);
  });

  for (const [value, message] of [['x', 'depends_on is not an array'], [[5], 'depends_on[0] is not a string'], [['not-a-uuid'], 'depends_on[0] does not match pattern']] as const) {
    it(`refuses ${JSON.stringify(value)} with "${message}"`, async () => {
      const res = await api(p.apiKey).post('/checks/', { depends_on: value });
      expect([res.status, res.body.error]).to.deep.equal([400, `json validation error: ${message}`]);
    });
  }
});

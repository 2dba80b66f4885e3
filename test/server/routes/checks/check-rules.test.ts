import { expect } from 'chai';
import { buildCheck, buildProject, type TestProject } from '../../../helpers/factories.js';
import { Check } from '../../../../shared/models/check.js';
import { storedCheck } from '../../../helpers/pings.js';
import { api, COMMON_FIELDS, READ_WRITE_FIELDS } from '../support.js';

const RULES = { fail_threshold: 3, fail_window: 3600, min_duration: 120, min_interval: 600 };

/** [payload, expected message after `json validation error: `] for the rule fields (docs/alerting-rules.md). */
const BAD: Array<[object, string]> = [
  [{ fail_threshold: 0 }, 'fail_threshold is too small'],
  [{ fail_threshold: 101 }, 'fail_threshold is too large'],
  [{ fail_threshold: 2.5 }, 'fail_threshold is not an integer'],
  [{ fail_threshold: '3' }, 'fail_threshold is not a number'],
  [{ fail_threshold: true }, 'fail_threshold is not a number'],
  [{ fail_window: -1 }, 'fail_window is too small'],
  [{ fail_window: 0 }, 'fail_window is too small'],
  [{ fail_window: 1.5 }, 'fail_window is not an integer'],
  [{ min_duration: -1 }, 'min_duration is too small'],
  [{ min_duration: 0.5 }, 'min_duration is not an integer'],
  [{ min_duration: 31536001 }, 'min_duration is too large'],
  [{ min_interval: -60 }, 'min_interval is too small'],
  [{ min_interval: 59.9 }, 'min_interval is not an integer'],
  [{ min_interval: '60' }, 'min_interval is not a number'],
];

/** The rule fields of POST /api/v3/checks/ and POST /api/v3/checks/<uuid> (docs/alerting-rules.md). */
describe('alerting rule fields of the check API', () => {
  let p: TestProject;
  beforeEach(async () => {
    p = await buildProject();
  });

  it('a check without rules shows exactly its usual keys', async () => {
    const res = await api(p.apiKey).post('/checks/', { name: 'plain' });
    expect(res.status).to.equal(201);
    expect(Object.keys(res.body)).to.deep.equal([...COMMON_FIELDS, ...READ_WRITE_FIELDS, 'timeout']);
    const stored = await Check.collection.findOne({ _id: res.body.uuid as never });
    for (const key of ['failThreshold', 'failWindow', 'minDuration', 'minInterval', 'failRun', 'lastSuccess']) expect(stored).to.not.have.property(key);
  });

  it('creates a check with every rule, stored and returned after the usual keys', async () => {
    const res = await api(p.apiKey).post('/checks/', { name: 'backup', ...RULES });
    expect(res.status).to.equal(201);
    expect(Object.keys(res.body).slice(-4)).to.deep.equal(Object.keys(RULES));
    expect(res.body).to.include(RULES);
    expect(await storedCheck(res.body.uuid as string)).to.include({ failThreshold: 3, failWindow: 3600, minDuration: 120, minInterval: 600 });
    expect((await api(p.apiKey).get(`/checks/${res.body.uuid}`)).body).to.include(RULES);
  });

  it('updates a rule, leaves the others, and turns one off with null (its key then gone)', async () => {
    const check = await buildCheck(p, { failThreshold: 3, minDuration: 120 });
    const res = await api(p.apiKey).post(`/checks/${check._id}`, { fail_threshold: 5, min_duration: null });
    expect(res.status).to.equal(200);
    expect(res.body.fail_threshold).to.equal(5);
    expect(res.body).to.not.have.property('min_duration');
    expect((await storedCheck(check._id)).minDuration).to.equal(null);
  });

  it('a new threshold starts the failure count again', async () => {
    const check = await buildCheck(p, { failThreshold: 3, failRun: [new Date()] });
    await api(p.apiKey).post(`/checks/${check._id}`, { fail_threshold: 4 });
    expect((await storedCheck(check._id)).failRun).to.equal(null);
  });

  it('accepts the bounds: threshold 1 and 100, durations 0', async () => {
    for (const body of [{ fail_threshold: 1, min_duration: 0, min_interval: 0 }, { fail_threshold: 100, fail_window: 1 }]) {
      const res = await api(p.apiKey).post('/checks/', body);
      expect(res.status).to.equal(201);
      expect(res.body).to.include(body);
    }
  });

  for (const [body, message] of BAD) {
    it(`refuses ${JSON.stringify(body)} with 400 "${message}", creating and changing nothing`, async () => {
      const check = await buildCheck(p, { name: 'kept', failThreshold: 2 });
      const created = await api(p.apiKey).post('/checks/', { name: 'new', ...body });
      expect([created.status, created.body]).to.deep.equal([400, { error: `json validation error: ${message}` }]);
      const updated = await api(p.apiKey).post(`/checks/${check._id}`, { name: 'changed', ...body });
      expect([updated.status, updated.body]).to.deep.equal([400, { error: `json validation error: ${message}` }]);
      expect(await Check.countDocuments({ projectId: p.project._id })).to.equal(1);
      expect(await storedCheck(check._id)).to.include({ name: 'kept', failThreshold: 2, rev: 0 });
    });
  }
});

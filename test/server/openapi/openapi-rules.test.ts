import { expect } from 'chai';
import { buildChannel, buildCheck, buildProject, http } from '../../helpers/factories.js';
import { testClock } from '../../helpers/pings.js';
import { ApiValidator } from './validator.js';

const tc = testClock();

/** The alerting-rule members (docs/alerting-rules.md) against the OpenAPI description. */
describe('the OpenAPI description of alerting rules against real responses', () => {
  let validator: ApiValidator;
  before(async () => {
    validator = new ApiValidator((await http(tc.clock).get('/api/v3/openapi.json')).body);
  });

  it('describes a payload and a check with every rule, and a rule turned off with null', async () => {
    const project = await buildProject();
    const parent = await buildCheck(project);
    const body = { name: 'ruled', fail_threshold: 3, fail_window: 600, min_duration: 60, min_interval: 300, depends_on: [parent._id] };
    validator.request('POST', '/checks/', body);
    const created = await http(tc.clock).post('/api/v3/checks/').set('X-Api-Key', project.apiKey).send(body);
    validator.response('POST', '/checks/', created);
    const off = { min_duration: null };
    validator.request('POST', '/checks/{code}', off);
    const updated = await http(tc.clock).post(`/api/v3/checks/${created.body.uuid}`).set('X-Api-Key', project.apiKey).send(off);
    validator.response('POST', '/checks/{code}', updated);
    expect([created.status, updated.status, updated.body.min_duration, updated.body.depends_on]).to.deep.equal([201, 200, undefined, [parent._id]]);
  });

  it('describes a notification with its reason', async () => {
    const project = await buildProject();
    const channel = await buildChannel(project, { kind: 'webhook', value: 'http://127.0.0.1:9/hook' });
    const check = await buildCheck(project, { status: 'up', lastPing: tc.now, minInterval: 300, channels: [channel._id] });
    await http(tc.clock).get(`/ping/${check._id}`);
    await http(tc.clock).get(`/ping/${check._id}`);
    const res = await http(tc.clock).get(`/api/v3/checks/${check._id}/notifications/`).set('X-Api-Key', project.apiKey);
    validator.response('GET', '/checks/{uuid}/notifications/', res);
    expect(res.body.notifications[0].reason).to.equal('ran too often');
  });

  it('describes a held-back alert', async () => {
    const project = await buildProject();
    const channel = await buildChannel(project, { kind: 'webhook', value: 'http://127.0.0.1:9/hook' });
    const parent = await buildCheck(project, { status: 'down' });
    const check = await buildCheck(project, { status: 'up', lastPing: tc.now, dependsOn: [parent._id], channels: [channel._id] });
    await http(tc.clock).get(`/ping/${check._id}/fail`);
    const res = await http(tc.clock).get(`/api/v3/checks/${check._id}/notifications/`).set('X-Api-Key', project.apiKey);
    validator.response('GET', '/checks/{uuid}/notifications/', res);
    expect(res.body.notifications[0]).to.include({ outcome: 'skipped', reason: 'parent down' });
  });
});
